import DocModel
import DocStore
import Firestore
import RESTSource

/// Plans one source chunk by chunk and applies each chunk unless it is a dry run.
struct Planner {
    let definition: SourceDefinition
    let store: DocumentStore
    let options: SyncOptions
    var report: SourceReport
    /// Checks Firestore's limits before a document is stored, so a document Firestore
    /// would refuse never replaces a good one nor stays pending forever.
    let firestoreCodec: FirestoreValueCodec
    /// Keys pulled in this run (records and failed records whose key is known).
    private var seen = Set<String>()
    private var failuresWithoutKey = 0

    init(definition: SourceDefinition, store: DocumentStore, options: SyncOptions, report: SourceReport,
         firestoreCodec: FirestoreValueCodec) {
        self.definition = definition
        self.store = store
        self.options = options
        self.report = report
        self.firestoreCodec = firestoreCodec
    }

    mutating func recordPullFailure(_ error: RecordError) {
        if let key = error.key { seen.insert(key) } else { failuresWithoutKey += 1 }
        report.counts.failed += 1
        let phase: RecordFailure.Phase = error.field == nil ? .pull : .shape
        addFailure(RecordFailure(phase: phase, key: error.key, field: error.field, message: "\(error.locator): \(error.message)"))
    }

    /// Runs the source's Swift transforms on one record; false (and the record
    /// reported as failed, its stored document kept) when one of them throws.
    mutating func transform(_ record: inout SourceRecord, with transforms: [RecordTransform]) -> Bool {
        do {
            for transform in transforms { try transform.apply(to: &record.document) }
        } catch {
            seen.insert(record.key)
            report.counts.failed += 1
            addFailure(RecordFailure(phase: .shape, key: record.key, field: error.field, message: error.message))
            return false
        }
        // The source's canonical text described the document before the transforms.
        record.canonical = nil
        return true
    }

    private mutating func addFailure(_ failure: RecordFailure) {
        if report.failures.count < options.detailLimit { report.failures.append(failure) }
    }

    private mutating func addChange(_ change: DocumentChange) {
        if report.changes.count < options.detailLimit {
            report.changes.append(change)
        } else {
            report.omittedChanges += 1
        }
    }

    /// `addChange` that works out the field changes only for a change the report lists.
    private mutating func addChange(_ kind: DocumentChange.Kind, id: String, fields: () -> [FieldChange]) {
        if report.changes.count < options.detailLimit {
            report.changes.append(DocumentChange(kind: kind, id: id, fields: fields()))
        } else {
            report.omittedChanges += 1
        }
    }

    mutating func plan(_ records: [SourceRecord]) async throws {
        guard !records.isEmpty else { return }
        report.pull.records += records.count
        let stored = try await store.documents(in: definition.collection, ids: records.map(\.key))
        var writes: [DocumentWrite] = []
        writes.reserveCapacity(records.count)
        for record in records {
            guard seen.insert(record.key).inserted else {
                report.counts.failed += 1
                addFailure(RecordFailure(
                    phase: .plan, key: record.key,
                    message: "duplicate key in this pull; the first record with this key was kept, this one was ignored"))
                continue
            }
            guard case .object(let fields) = record.document else {
                report.counts.failed += 1
                addFailure(RecordFailure(phase: .shape, key: record.key,
                                         message: "the shaped record is a \(record.document.kindName), not an object"))
                continue
            }
            let path: DocumentPath
            do {
                path = try definition.collection.document(record.key)
            } catch {
                report.counts.failed += 1
                addFailure(RecordFailure(phase: .shape, key: record.key, message: error.reason))
                continue
            }
            // Written once, where the record was shaped (or here for sources that did not).
            let canonical = record.canonical ?? CanonicalDocument(record.document)
            let text = canonical.text
            let previous = stored[record.key]
            if previous?.data != text && !FirestoreLimitCheck.isCertainlyWithinLimits(canonical.summary, path: path) {
                do {
                    _ = try firestoreCodec.encodeDocument(fields, path: path)
                } catch {
                    report.counts.failed += 1
                    var field: String?
                    if case .invalidDocument(_, let blamed, _) = error { field = blamed }
                    addFailure(RecordFailure(phase: .shape, key: record.key, field: field,
                                             message: "Firestore would refuse this document (\(error)); the stored version is kept"))
                    continue
                }
            }
            guard let previousText = previous?.data else {
                report.counts.create += 1
                addChange(.create, id: record.key) { FieldChange.between([:], fields) }
                writes.append(.putCanonical(path, text: text))
                continue
            }
            if previousText == text {
                report.counts.unchanged += 1
                continue
            }
            let oldValue = try? JSONValue(parsing: previousText)
            if let oldValue, FieldChange.differOnlyInNumberSpelling(oldValue, record.document) {
                report.counts.unchanged += 1
                continue
            }
            report.counts.update += 1
            addChange(.update, id: record.key) { FieldChange.between(oldValue?.objectValue ?? [:], fields) }
            writes.append(.putCanonical(path, text: text))
        }
        if !options.isDryRun && !writes.isEmpty {
            try await store.apply(writes)
        }
    }

    /// Stored documents that were not pulled become deletes, behind the mass-delete guard.
    mutating func planDeletes(policy: SyncPolicy, liveBefore: Int) async throws {
        guard policy.deletes == .propagate else { return }
        guard failuresWithoutKey == 0 else {
            report.refusal = "\(failuresWithoutKey) records failed before their key was known, so no deletes were planned"
            return
        }
        var doomed: [String] = []
        var after: String?
        while true {
            let ids = try await store.ids(in: definition.collection, after: after, limit: 5_000)
            guard let last = ids.last else { break }
            for id in ids where !seen.contains(id) { doomed.append(id) }
            after = last
        }
        guard !doomed.isEmpty else { return }
        let share = liveBefore == 0 ? 1 : Double(doomed.count) / Double(liveBefore)
        if share > policy.maximumDeleteShare && !options.allowsMassDelete {
            let percent = Int((share * 100).rounded())
            report.refusal = "the plan would delete \(doomed.count) of \(liveBefore) documents (\(percent)%), more than the "
                + "\(Int(policy.maximumDeleteShare * 100))% allowed; nothing was deleted. If the API really dropped "
                + "them, run again with --allow-mass-delete"
            report.isRefusedByDeleteGuard = true
            return
        }
        report.counts.delete += doomed.count
        for id in doomed { addChange(DocumentChange(kind: .delete, id: id, fields: [])) }
        if !options.isDryRun {
            var writes: [DocumentWrite] = []
            for id in doomed {
                writes.append(.delete(try definition.collection.document(id)))
                if writes.count >= options.chunkSize {
                    try await store.apply(writes)
                    writes.removeAll(keepingCapacity: true)
                }
            }
            try await store.apply(writes)
        }
    }
}
