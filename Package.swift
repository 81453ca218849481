// swift-tools-version:6.0
import PackageDescription

// Layers (see README "How it works"). Every target lists each module it imports, and
// nothing else; CI builds with --explicit-target-dependency-import-check error.
//   docsync (executable shim) -> DocSyncCLI -> DocSync -> DocStore, RESTSource, Firestore
//   RESTSource, Firestore -> HTTP (libcurl through CCurl); all of them -> DocModel
let package = Package(
    name: "docsync",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "docsync", targets: ["docsync"]),
        .library(name: "DocSyncKit", targets: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "DocModel", dependencies: ["COpenSSL"]),
        .target(name: "DocStore", dependencies: ["DocModel", "CSQLite"]),
        .target(name: "HTTP", dependencies: ["CCurl"]),
        .target(name: "RESTSource", dependencies: ["DocModel", "HTTP"]),
        .target(name: "Firestore", dependencies: ["DocModel", "HTTP", "COpenSSL"]),
        .target(name: "DocSync", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore"]),
        .target(name: "DocSyncCLI", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync",
                                            "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .executableTarget(name: "docsync", dependencies: ["DocSyncCLI"]),
        .executableTarget(name: "docsync-bench", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "DocSync", "LoopbackHTTP"]),
        .target(name: "SampleAPI", dependencies: ["DocModel"]),
        .target(name: "LoopbackHTTP"),
        .target(name: "EmulatorLauncher", dependencies: ["HTTP"]),
        .target(name: "TestSupport", dependencies: ["DocModel", "HTTP", "LoopbackHTTP", "EmulatorLauncher"]),
        .testTarget(name: "DocModelTests", dependencies: ["DocModel"]),
        .testTarget(name: "DocStoreTests", dependencies: ["DocModel", "DocStore", "CSQLite"]),
        .testTarget(name: "FirestoreTests", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "TestSupport"]),
        .testTarget(name: "RESTSourceTests", dependencies: ["DocModel", "HTTP", "RESTSource", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DocSyncTests", dependencies: ["DocModel", "DocStore", "RESTSource", "Firestore", "DocSync", "SampleAPI", "TestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "DocSyncCLITests", dependencies: ["DocModel", "DocStore", "DocSyncCLI", "Firestore", "SampleAPI", "TestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync",
                                                      "DocSyncCLI", "SampleAPI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
