import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import HTTP
import SampleAPI
import Testing
import TestSupport

/// One in-process world for the fault campaign: the perfume API and the emulator,
/// each behind a `FaultProxy`, and the engine with small, fast retry budgets.
final class FaultWorld: Sendable {
    let server: PerfumeServer
    let apiProxy: FaultProxy
    let firestoreProxy: FaultProxy
    let directory: TemporaryDirectory
    let store: DocumentStore
    let collection: CollectionPath
    let reader: FirestoreClient
    let emulatorHost: String

    init(label: String) async throws {
        server = try PerfumeServer()
        apiProxy = try FaultProxy(upstream: server.baseURL)
        let emulator = try await FirestoreEmulator.shared()
        try await EmulatorWarmup.wait()
        emulatorHost = emulator.host
        firestoreProxy = try FaultProxy(upstream: "http://" + emulator.host)
        directory = try TemporaryDirectory(label)
        store = try DocumentStore(path: directory.path("store.sqlite"))
        collection = try CollectionPath(label.map { $0.isLetter || $0.isNumber ? $0 : "_" } + "_" + UUID().uuidString.prefix(8))
        reader = FirestoreClient(database: FirestoreDatabase(projectID: CampaignWorld.sharedProjectID), endpoint: .emulator(host: emulator.host),
                                 credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
    }

    deinit {
        apiProxy.stop()
        firestoreProxy.stop()
    }

    /// The live transport with a short request timeout, so a `.delay` fault (6 s) times out (4 s).
    static let impatientTransport = HTTPTransport { request in
        var request = request
        request.timeout = .seconds(4)
        return try await HTTPTransport.live.send(request)
    }

    /// The perfume source through the API proxy, with `retries` and a 1 s timeout.
    func source(retries: Int) throws -> [SourceDefinition] {
        var text = PerfumeSampleAPI.sourceConfig(baseURL: apiProxy.baseURL, collection: collection.description)
        text = text.replacingOccurrences(
            of: #""http": {"concurrency": 8, "backoffSeconds": 0.01, "timeoutSeconds": 20}"#,
            with: #""http": {"concurrency": 8, "backoffSeconds": 0.01, "maxBackoffSeconds": 0.05, "timeoutSeconds": 1, "retries": \#(retries)}"#)
        return try SyncConfig.decode(JSONValue(parsing: #"{"sources": [\#(text)]}"#)).sources
    }

    /// The engine: API retries `apiRetries`, Firestore `firestoreAttempts` attempts per write.
    func engine(apiRetries: Int, firestoreAttempts: Int) throws -> SyncEngine {
        var options = FirestoreClientOptions(maxWritesPerBatch: 5, maxBatchesInFlight: 2,
                                             retry: RetryPolicy(maxAttempts: firestoreAttempts, baseDelay: .milliseconds(5), maxDelay: .milliseconds(50)),
                                             rampUp: false)
        options.random = { 0.5 }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: CampaignWorld.sharedProjectID),
                                     endpoint: .emulator(host: firestoreProxy.hostAndPort), credentials: .emulatorOwner,
                                     options: options, transport: Self.impatientTransport)
        var policy = SyncPolicy()
        policy.batchSize = 5
        policy.concurrency = 2
        return SyncEngine(store: store, sources: try source(retries: apiRetries), policy: policy, firestore: client, environment: [:])
    }

    /// Waits until no proxied request is still being delayed or forwarded (a delayed
    /// write that lands after a newer one would be a different test).
    func drain() async throws {
        while apiProxy.inFlight > 0 || firestoreProxy.inFlight > 0 { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// A clean pull of the API as it is now, into a private in-memory store.
    func expected() async throws -> [String: JSONValue] {
        let text = PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL, collection: collection.description)
        let config = try SyncConfig.decode(JSONValue(parsing: #"{"sources": [\#(text)]}"#))
        let memory = try DocumentStore(path: ":memory:")
        _ = try await SyncEngine(store: memory, sources: config.sources, policy: config.policy, firestore: nil, environment: [:]).sync(SyncOptions())
        return try await CampaignWorld.documents(in: memory, collection: collection)
    }

    func remote() async throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for document in try await reader.list(collection) { result[document.path.id] = .object(document.fields) }
        return result
    }

    /// The state a clean run leaves: store = clean pull, Firestore = store, nothing pending.
    func expectCleanState(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let local = try await CampaignWorld.documents(in: store, collection: collection)
        let expected = try await expected()
        #expect(local == expected, "\(context): the store differs from a clean sync in \(Set(local.keys).symmetricDifference(expected.keys).count) ids",
                sourceLocation: sourceLocation)
        let remote = try await remote()
        #expect(remote == local, "\(context): Firestore differs from the store", sourceLocation: sourceLocation)
        #expect(try await store.pendingCount(in: nil) == 0, "\(context): documents left pending", sourceLocation: sourceLocation)
        #expect(try await store.integrityCheck() == "ok", sourceLocation: sourceLocation)
    }
}

/// Syncs through proxies that answer 429/500/503, delay past timeouts, reset
/// connections and truncate bodies: within the retry budget the result equals a
/// clean run; past it, failed records are reported, stay pending (or unstored),
/// and the next run completes them.
@Suite(.serialized, .tags(.integration, .campaign), .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(20)))
struct FaultCampaignTests {
    static let seeds: [UInt64] = (0..<Campaign.size(ci: 1, full: 10)).map { Campaign.seed &+ 0x5000 &+ UInt64($0) }

    @Test(arguments: seeds)
    func twentyPercentFaultsEverywhereStillGiveTheCleanResult(seed: UInt64) async throws {
        let world = try await FaultWorld(label: "faults")
        world.apiProxy.setPlan(.init(rate: 0.2, seed: seed, delay: .milliseconds(1_500)))
        // Firestore sees few requests (150 documents in a batch or two per sync):
        // its first four always get a fault, so the campaign never runs fault-free.
        world.firestoreProxy.setPlan(.init(rate: 0.2, seed: seed &+ 1, delay: .seconds(6), firstFaulted: 4))
        let engine = try world.engine(apiRetries: 8, firestoreAttempts: 10)

        let first = try await engine.sync(SyncOptions())
        #expect(!first.hasFailures, "seed \(seed): \(first.sources.first?.failures.prefix(3) ?? []) \(first.sources.first?.pullError ?? "")")
        #expect(first.totals.create == 150)
        #expect(first.pushTotals?.written == 150)
        try await world.drain()
        try await world.expectCleanState("seed \(seed), first sync")

        // Changes, a removal, and the same weather.
        let ids = world.server.api.productIDs
        for id in ids.prefix(7) { world.server.api.changeDescription(of: id, to: "<b>Key Notes:</b> Rain, \(id)") }
        world.server.api.changeListRow(of: ids[9], field: "rating", to: "1.5")
        world.server.api.remove(ids[10])
        let second = try await engine.sync(SyncOptions())
        #expect(!second.hasFailures, "seed \(seed): \(second.sources.first?.failures.prefix(3) ?? [])")
        #expect(second.totals.update == 8 && second.totals.delete == 1)
        try await world.drain()
        try await world.expectCleanState("seed \(seed), second sync")

        let api = world.apiProxy.statistics, firestore = world.firestoreProxy.statistics
        campaignLog("seed \(seed): API \(api), Firestore \(firestore)")
        #expect(api.totalFaults > 10 && firestore.totalFaults > 3, "the faults happened: API \(api.faults), Firestore \(firestore.faults)")
    }

    @Test func firestoreAlwaysFailingLeavesEverythingPendingAndTheNextRunPushesIt() async throws {
        let world = try await FaultWorld(label: "fs-down")
        world.firestoreProxy.setPlan(.init(rate: 1, faults: [.unavailable, .tooManyRequests], seed: 7))
        let failed = try await world.engine(apiRetries: 3, firestoreAttempts: 3).sync(SyncOptions())
        #expect(failed.totals.create == 150, "the pull and the store are not held back by Firestore")
        #expect(failed.pushTotals?.written == 0)
        #expect(failed.pushTotals?.failed == 150)
        let failures = failed.sources[0].failures
        #expect(failures.count == 150 && failures.allSatisfy { $0.phase == .push && $0.key != nil })
        #expect(failures.first?.message.contains("Firestore answered UNAVAILABLE") == true
                    || failures.first?.message.contains("Firestore answered RESOURCE_EXHAUSTED") == true, "\(failures.first?.message ?? "")")
        #expect(try await world.store.pendingCount(in: nil) == 150)
        #expect(try await world.remote().isEmpty)
        let runs = try await world.store.recentRuns(limit: 1)
        #expect(runs.first?.outcome == .partial)
        #expect(runs.first?.counts.pushFailed == 150)

        world.firestoreProxy.setPlan(.none)
        let recovered = try await world.engine(apiRetries: 3, firestoreAttempts: 3).sync(SyncOptions())
        #expect(recovered.totals == PlanCounts(unchanged: 150))
        #expect(recovered.pushTotals?.written == 150)
        #expect(!recovered.hasFailures)
        try await world.expectCleanState("after Firestore came back")
    }

    @Test func withoutRetriesFailedRecordsAreReportedAndTheNextRunCompletesThem() async throws {
        let world = try await FaultWorld(label: "no-retries")
        let seed = Campaign.seed &+ 0x6000
        world.apiProxy.setPlan(.init(rate: 0.2, seed: seed, delay: .milliseconds(1_500), applies: { $0.path.hasPrefix("/products/detail") }))
        world.firestoreProxy.setPlan(.init(rate: 0.2, faults: [.unavailable, .internalError, .reset, .truncate, .tooManyRequests], seed: seed))
        let partial = try await world.engine(apiRetries: 0, firestoreAttempts: 1).sync(SyncOptions())
        let pullFailures = partial.sources[0].failures.filter { $0.phase == .pull }
        let pushFailures = partial.sources[0].failures.filter { $0.phase == .push }
        #expect(!pullFailures.isEmpty && !pushFailures.isEmpty, "seed \(seed) gives failures on both sides")
        #expect(pullFailures.allSatisfy { $0.key != nil && $0.message.contains("detail request failed") }, "\(pullFailures.prefix(2))")
        #expect(partial.totals.create == 150 - pullFailures.count)
        #expect(partial.totals.delete == 0)
        #expect(try await world.store.pendingCount(in: nil) == pushFailures.count)
        try await world.drain()

        world.apiProxy.setPlan(.none)
        world.firestoreProxy.setPlan(.none)
        let completed = try await world.engine(apiRetries: 0, firestoreAttempts: 1).sync(SyncOptions())
        #expect(!completed.hasFailures)
        #expect(completed.totals.create == pullFailures.count, "the records that failed are created now")
        #expect(completed.pushTotals?.written == pullFailures.count + pushFailures.count)
        try await world.expectCleanState("after a run without faults")
    }
}
