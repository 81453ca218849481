// swift-tools-version:6.0
import PackageDescription

// An example of DocSyncKit used from another package: a source written in Swift
// (an API that wants HMAC-signed requests) synced to Firestore. It depends on
// docsync by path; in your own package use a URL and a version instead.
let package = Package(
    name: "HMACSource",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HMACSource", targets: ["HMACSource"]),
    ],
    dependencies: [
        // Named, so the identity does not depend on the folder the checkout is in.
        .package(name: "docsync", path: "../.."),
    ],
    targets: [
        .target(name: "HMACSource", dependencies: [.product(name: "DocSyncKit", package: "docsync")]),
        .testTarget(name: "HMACSourceTests", dependencies: ["HMACSource", .product(name: "DocSyncKit", package: "docsync")]),
    ],
    swiftLanguageModes: [.v6]
)
