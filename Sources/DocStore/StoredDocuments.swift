import DocModel

/// The documents of one collection in key order, fetched from the store a page
/// at a time (keyset paging), so memory does not grow with the collection.
///
/// Made by `DocumentStore.documents(in:batchSize:includeTombstones:)`. Checks
/// for cancellation before each page.
public struct StoredDocuments: AsyncSequence, Sendable {
    public typealias Element = StoredDocument
    public typealias Failure = any Error

    let store: DocumentStore
    let collection: CollectionPath
    let batchSize: Int
    let includeTombstones: Bool

    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let sequence: StoredDocuments
        var buffer: [StoredDocument] = []
        var position = 0
        var after: String?
        var isExhausted = false

        init(sequence: StoredDocuments) {
            self.sequence = sequence
        }

        /// The next document, or nil at the end.
        /// - Throws: `DocStoreError`, or `CancellationError` when the task was cancelled.
        public mutating func next() async throws -> StoredDocument? {
            if position == buffer.count {
                guard !isExhausted else { return nil }
                try Task.checkCancellation()
                buffer = try await sequence.store.list(
                    sequence.collection, after: after, limit: sequence.batchSize, includeTombstones: sequence.includeTombstones)
                position = 0
                isExhausted = buffer.count < sequence.batchSize
                after = buffer.last?.path.id
                if buffer.isEmpty { return nil }
            }
            defer { position += 1 }
            return buffer[position]
        }
    }
}
