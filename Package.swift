// swift-tools-version:6.0
import PackageDescription

// Layers (see README "How it works"). Every target lists each module it imports, and
// nothing else; CI builds with --explicit-target-dependency-import-check error.
//   docsync (executable shim) -> DocSyncCLI -> DocSync -> DocStore, RESTSource, Firestore
//   RESTSource, Firestore -> HTTP (libcurl through CCurl); all of them -> DocModel
// The demo is not in docsync (STYLE R25): docsync-demo (executable shim) -> DocSyncDemo -> DocSyncCLI
// plus SampleAPI, LoopbackHTTP, EmulatorLauncher; `docsync demo` launches docsync-demo.
let package = Package(
    name: "docsync",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "docsync", targets: ["docsync"]),
        .executable(name: "docsync-demo", targets: ["docsync-demo"]),
        .library(name: "DocSyncKit", targets: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync"]),
        // The docsync command line as a library: a program of your own runs it with
        // its Swift sources registered (Environment.swiftSources; docs/library.md).
        .library(name: "DocSyncCLI", targets: ["DocSyncCLI"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "DocModel", dependencies: ["COpenSSL"]),
        .target(name: "DocStore", dependencies: ["DocModel", "CSQLite"]),
        .target(name: "HTTP", dependencies: ["DocModel", "CCurl"]),
        .target(name: "RESTSource", dependencies: ["DocModel", "HTTP"]),
        .target(name: "Firestore", dependencies: ["DocModel", "HTTP", "COpenSSL"]),
        .target(name: "DocSync", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore"]),
        // The command line's async code runs on its caller's executor (the main actor in
        // docsync), not the concurrency pool: two fewer threads at every start (README, Start-up).
        .target(name: "DocSyncCLI", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync"],
                swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        .executableTarget(name: "docsync", dependencies: ["DocSyncCLI"]),
        .target(name: "DocSyncDemo", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "DocSync", "DocSyncCLI",
                                                    "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .executableTarget(name: "docsync-demo", dependencies: ["DocSyncCLI", "DocSyncDemo"]),
        .executableTarget(name: "docsync-bench", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "DocSync", "LoopbackHTTP"]),
        .target(name: "SampleAPI", dependencies: ["DocModel"]),
        .target(name: "LoopbackHTTP"),
        .target(name: "EmulatorLauncher", dependencies: ["DocModel", "HTTP"]),
        .target(name: "TestSupport", dependencies: ["DocModel", "HTTP", "SampleAPI", "LoopbackHTTP", "EmulatorLauncher"]),
        .testTarget(name: "DocModelTests", dependencies: ["DocModel"]),
        .testTarget(name: "DocStoreTests", dependencies: ["DocModel", "DocStore", "CSQLite"]),
        .testTarget(name: "FirestoreTests", dependencies: ["DocModel", "DocStore", "HTTP", "Firestore", "TestSupport"]),
        .testTarget(name: "RESTSourceTests", dependencies: ["DocModel", "HTTP", "RESTSource", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DocSyncTests", dependencies: ["DocModel", "DocStore", "RESTSource", "Firestore", "DocSync", "SampleAPI", "TestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "DocSyncKitTests", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync", "TestSupport"]),
        .testTarget(name: "DocSyncCLITests", dependencies: ["DocModel", "DocStore", "DocSync", "DocSyncCLI", "Firestore", "SampleAPI", "TestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "DocSyncDemoTests", dependencies: ["DocModel", "DocStore", "DocSyncCLI", "DocSyncDemo", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["DocModel", "DocStore", "HTTP", "RESTSource", "Firestore", "DocSync",
                                                      "DocSyncCLI", "SampleAPI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
