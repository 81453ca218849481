import DocModel
import DocStore
import DocSync
import Foundation
import SampleAPI
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct DetailCacheTests {
    /// The perfume API on a loopback socket and a store, without Firestore.
    final class World: Sendable {
        let api = PerfumeSampleAPI()
        let server: LoopbackHTTPServer
        let directory: URL
        let store: DocumentStore

        init() throws {
            let api = self.api
            server = try LoopbackHTTPServer { request in
                let (status, body) = api.respond(method: request.method, target: request.path)
                return HTTPResponseSpec(status: status, body: Array(body.utf8))
            }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try DocumentStore(path: directory.appendingPathComponent("store.sqlite").path)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        func sync(refresh: String, fullRefresh: Bool = false, dryRun: Bool = false) async throws -> (SourceReport, detailCalls: Int) {
            let source = PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL)
                .replacingOccurrences(of: #""rename": {"quickLookDescription": "summary"}"#,
                                      with: #""rename": {"quickLookDescription": "summary"}, "refresh": "\#(refresh)""#)
            let config = try SyncConfig.decode(JSONValue(parsing: #"{"sources": [\#(source)]}"#))
            let engine = SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: nil, environment: [:])
            var options = SyncOptions()
            options.skipsPush = true
            options.fullRefresh = fullRefresh
            options.isDryRun = dryRun
            let before = api.callCounts.detail
            let report = try await engine.sync(options)
            return (report.sources[0], api.callCounts.detail - before)
        }
    }

    @Test func changedRefreshCallsDetailsOnlyForNewOrChangedListRows() async throws {
        let world = try World()
        let first = try await world.sync(refresh: "changed")
        #expect(first.detailCalls == 150)
        #expect(first.0.pull.detailCalls == 150)
        #expect(first.0.counts.create == 150)

        let second = try await world.sync(refresh: "changed")
        #expect(second.detailCalls == 0, "no list change: every detail comes from the cache")
        #expect(second.0.pull.detailCallsSaved == 150)
        #expect(second.0.counts.unchanged == 150)

        let id = world.api.productIDs[7]
        world.api.changeListRow(of: id, field: "rating", to: "4.99")
        let third = try await world.sync(refresh: "changed")
        #expect(third.detailCalls == 1, "one list row changed: exactly one detail call")
        #expect(third.0.counts.update == 1)
        #expect(third.0.changes.first?.id == id)

        let full = try await world.sync(refresh: "changed", fullRefresh: true)
        #expect(full.detailCalls == 150, "--full-refresh refetches every detail")
    }

    @Test func defaultRefreshCallsEveryDetailEveryTime() async throws {
        let world = try World()
        _ = try await world.sync(refresh: "always")
        let second = try await world.sync(refresh: "always")
        #expect(second.detailCalls == 150)
        #expect(second.0.pull.detailCallsSaved == 0)
    }

    @Test func aDetailChangeBehindAnUnchangedListRowIsMissedByDesignWithChangedRefresh() async throws {
        // The trade README explains: `changed` trusts the list row.
        let world = try World()
        _ = try await world.sync(refresh: "changed")
        world.api.changeDescription(of: world.api.productIDs[0], to: "<b>Fragrance Family:</b> Fresh")
        let second = try await world.sync(refresh: "changed")
        #expect(second.0.counts.update == 0)
        let always = try await world.sync(refresh: "always")
        #expect(always.0.counts.update == 1)
    }

    @Test func aNumberSentAsDoubleThenAsIntegerIsNotAChange() async throws {
        let world = try World()
        let id = world.api.productIDs[0]
        world.api.changeListRow(of: id, field: "stock", to: .double(5))
        let first = try await world.sync(refresh: "always")
        #expect(first.0.counts.create == 150)
        world.api.changeListRow(of: id, field: "stock", to: .int(5))
        let second = try await world.sync(refresh: "always")
        #expect(second.0.counts.unchanged == 150)
        // The stored spelling is kept.
        let stored = try await world.store.get(CollectionPath("Perfume").document(id))
        #expect(try stored?.value()?["stock"] == .double(5))
        world.api.changeListRow(of: id, field: "stock", to: .int(6))
        let third = try await world.sync(refresh: "always")
        #expect(third.0.counts.update == 1)
    }
}
