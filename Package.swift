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
        .target(name: "DocModel", dependencies: ["COpenSSL"]),
        .target(name: "DocStore", dependencies: ["DocModel", "CSQLite"]),
        .target(name: "RESTSource", dependencies: ["DocModel"]),
        .target(name: "Firestore", dependencies: ["DocModel", "COpenSSL"]),
        .target(name: "DocSync", dependencies: ["DocModel", "DocStore", "RESTSource", "Firestore"]),
        .target(name: "DocSyncCLI", dependencies: ["DocSync", "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .executableTarget(name: "docsync", dependencies: ["DocSyncCLI"]),
        .executableTarget(name: "docsync-bench", dependencies: ["DocModel", "DocStore", "Firestore", "DocSync", "LoopbackHTTP"]),
        .target(name: "SampleAPI", dependencies: ["DocModel"]),
        .target(name: "LoopbackHTTP"),
        .target(name: "EmulatorLauncher"),
        .target(name: "TestSupport", dependencies: ["DocModel", "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .testTarget(name: "DocModelTests", dependencies: ["DocModel", "TestSupport"]),
        .testTarget(name: "DocStoreTests", dependencies: ["DocStore", "TestSupport"]),
        .testTarget(name: "FirestoreTests", dependencies: ["Firestore", "DocStore", "TestSupport"]),
        .testTarget(name: "RESTSourceTests", dependencies: ["RESTSource", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DocSyncTests", dependencies: ["DocSync", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "DocSyncCLITests", dependencies: ["DocSyncCLI", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["DocSyncCLI", "DocSync", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
