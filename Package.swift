// swift-tools-version:6.0
import PackageDescription

// Layers (see README "Architecture"): arrows are the only allowed imports.
//   docsync (executable shim) -> DocSyncCLI -> DocSync -> DocStore, RESTSource, Firestore -> DocModel
let package = Package(
    name: "docsync",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "docsync", targets: ["docsync"]),
        .library(name: "DocSyncKit", targets: ["DocModel", "DocStore", "RESTSource", "Firestore", "DocSync"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "DocModel"),
        .target(name: "DocStore", dependencies: ["DocModel", "CSQLite"]),
        .target(name: "HTTP", dependencies: ["CCurl"]),
        .target(name: "RESTSource", dependencies: ["DocModel", "HTTP"]),
        .target(name: "Firestore", dependencies: ["DocModel", "HTTP", "COpenSSL"]),
        .target(name: "DocSync", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore"]),
        .target(name: "DocSyncCLI", dependencies: ["DocSync", "HTTP", "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .executableTarget(name: "docsync", dependencies: ["DocSyncCLI"]),
        .executableTarget(name: "docsync-bench", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "DocSync", "LoopbackHTTP"]),
        .target(name: "SampleAPI", dependencies: ["DocModel"]),
        .target(name: "LoopbackHTTP"),
        .target(name: "EmulatorLauncher", dependencies: ["HTTP"]),
        .target(name: "TestSupport", dependencies: ["DocModel", "HTTP", "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .testTarget(name: "DocModelTests", dependencies: ["DocModel", "TestSupport"]),
        .testTarget(name: "DocStoreTests", dependencies: ["DocStore", "TestSupport"]),
        .testTarget(name: "FirestoreTests", dependencies: ["Firestore", "DocStore", "HTTP", "TestSupport"]),
        .testTarget(name: "RESTSourceTests", dependencies: ["RESTSource", "HTTP", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DocSyncTests", dependencies: ["DocSync", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "DocSyncCLITests", dependencies: ["DocSyncCLI", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["DocSyncCLI", "DocSync", "HTTP", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
