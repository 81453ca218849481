import DocModel
import DocStore

/// One record that could not be imported, and why.
struct ImportFailure: Equatable, Sendable, CustomStringConvertible {
    var location: RecordLocation
    var reason: String

    var description: String { "\(location): \(reason)" }
}

/// How an import went.
struct ImportSummary: Equatable, Sendable {
    /// Records written (or, when checking only, records that would be written).
    var imported = 0
    /// Records (or structural problems) reported as failures.
    var failed = 0
}

/// Turns a stream of JSON records into documents of one collection.
///
/// The engine behind `docsync import`: records stream through `RecordReader`,
/// each is parsed and its key checked on its own (a bad record is reported and
/// skipped), and the good ones are written in transactions of `batchSize`.
/// While one batch is being written, the next one is parsed.
struct RecordImporter: Sendable {
    var collection: CollectionPath
    /// The record field whose value (a string or an integer) is the document id.
    var keyField: FieldPath
    var batchSize = 1000

    /// The write for one record, or why the record is refused.
    func makeWrite(_ bytes: [UInt8]) -> Result<DocumentWrite, ImportRecordError> {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            return .failure(ImportRecordError(reason: "invalid JSON at byte \(error.offset + 1) of the record: \(error.reason)"))
        }
        guard case .object = value else {
            return .failure(ImportRecordError(reason: "a record must be a JSON object, not \(article(value.kindName))"))
        }
        let id: String
        switch value[keyField] {
        case .string(let text): id = text
        case .int(let integer): id = String(integer)
        case nil: return .failure(ImportRecordError(reason: "the key field '\(keyField)' is missing"))
        case let other?:
            return .failure(ImportRecordError(reason: "the key field '\(keyField)' is \(article(other.kindName)); it must be a string or an integer"))
        }
        do {
            return .success(.put(try collection.document(id), value))
        } catch {
            return .failure(ImportRecordError(reason: "the key field '\(keyField)' is not a valid document id: \(error.reason)"))
        }
    }

    /// Reads every record of `source`; writes the good ones to `store` (or only
    /// checks them when `store` is nil) and reports each bad one to `onFailure`.
    /// - Throws: `DocStoreError` from the store (batches already written stay),
    ///   `CancellationError`, or what the source throws.
    func run(_ source: ByteSource, into store: DocumentStore?, onFailure: (ImportFailure) -> Void) async throws -> ImportSummary {
        var reader = RecordReader(source: source)
        var summary = ImportSummary()
        var batch: [DocumentWrite] = []
        batch.reserveCapacity(batchSize)
        var inFlight: Task<Void, any Error>?

        func flush() async throws {
            try Task.checkCancellation()
            if let inFlight { try await inFlight.value }
            inFlight = nil
            guard !batch.isEmpty else { return }
            if let store {
                let writes = batch
                inFlight = Task { try await store.apply(writes) }
            }
            summary.imported += batch.count
            batch.removeAll(keepingCapacity: true)
        }

        do {
            while let item = try reader.next() {
                switch item {
                case .record(let bytes, let location):
                    switch makeWrite(bytes) {
                    case .success(let write):
                        batch.append(write)
                        if batch.count >= batchSize { try await flush() }
                    case .failure(let error):
                        summary.failed += 1
                        onFailure(ImportFailure(location: location, reason: error.reason))
                    }
                case .malformed(let reason, let location):
                    summary.failed += 1
                    onFailure(ImportFailure(location: location, reason: reason))
                }
            }
            try await flush()
            try await flush() // waits for the last batch
        } catch {
            // Never leave a write running behind the caller's back.
            _ = try? await inFlight?.value
            throw error
        }
        return summary
    }

    private func article(_ kind: String) -> String {
        (kind.first.map { "aeiou".contains($0) } ?? false) ? "an \(kind)" : "a \(kind)"
    }
}

/// Why one record was refused.
struct ImportRecordError: Error, Equatable, Sendable {
    var reason: String
}
