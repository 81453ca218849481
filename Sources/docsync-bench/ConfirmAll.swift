import DocStore
import Foundation

/// `docsync-bench confirm-all STORE`: marks every pending document of STORE as
/// confirmed by the remote, through `DocumentStore.confirm`, as the pusher does
/// with the answers of a push that succeeded. Lets scripts/bench-engine measure
/// the size of a store "after a push" without the emulator.
enum ConfirmAll {
    static func run(storePath: String) async throws {
        let store = try DocumentStore(path: storePath, createIfMissing: false)
        var confirmed = 0
        while true {
            let page = try await store.pending(in: nil, after: nil, limit: 500)
            guard !page.isEmpty else { break }
            try await store.confirm(page.map {
                SyncConfirmation(path: $0.path, pushedData: $0.data, updateTime: "2026-01-01T00:00:00.000000Z")
            })
            confirmed += page.count
        }
        FileHandle.standardError.write(Data("confirmed \(confirmed) documents\n".utf8))
    }
}
