import DocModel

/// What a sync run planned and did, as a pure value; renderers turn it into text.
///
/// Counts are always exact. Per-document details are kept for at most
/// `detailLimit` documents per source (the rest are counted in
/// `omittedChanges`), so memory stays flat on large first syncs.
public struct SyncReport: Sendable, Equatable {
    public var isDryRun: Bool
    public var sources: [SourceReport]

    public init(isDryRun: Bool, sources: [SourceReport] = []) {
        self.isDryRun = isDryRun
        self.sources = sources
    }

    /// Sum of the per-source plan counts.
    public var totals: PlanCounts {
        sources.reduce(into: PlanCounts()) { $0.add($1.counts) }
    }

    /// Sum of the per-source push results (nil when nothing was pushed).
    public var pushTotals: PushCounts? {
        let pushes = sources.compactMap(\.push)
        guard !pushes.isEmpty else { return nil }
        return pushes.reduce(into: PushCounts()) { $0.add($1) }
    }

    /// True when the plan holds a create, update or delete.
    public var hasChanges: Bool { totals.changed > 0 }

    /// True when any record failed to pull, shape or push.
    public var hasFailures: Bool {
        totals.failed > 0 || (pushTotals?.failed ?? 0) > 0 || (pushTotals?.conflicts ?? 0) > 0
            || sources.contains { $0.pullError != nil || $0.isRefusedByDeleteGuard }
    }

    /// Failures that stopped a whole pull or push, in source order (pull before push).
    public var runWideFailures: [RunWideFailure] {
        sources.flatMap { [$0.pullFailure, $0.pushFailure].compactMap { $0 } }
    }
}

/// Counts of a plan: what happens to each pulled record and stored document.
public struct PlanCounts: Sendable, Equatable {
    public var create = 0
    public var update = 0
    public var delete = 0
    public var unchanged = 0
    public var failed = 0

    public init(create: Int = 0, update: Int = 0, delete: Int = 0, unchanged: Int = 0, failed: Int = 0) {
        self.create = create
        self.update = update
        self.delete = delete
        self.unchanged = unchanged
        self.failed = failed
    }

    public var changed: Int { create + update + delete }

    public mutating func add(_ other: PlanCounts) {
        create += other.create
        update += other.update
        delete += other.delete
        unchanged += other.unchanged
        failed += other.failed
    }
}

/// What the push sent and what Firestore confirmed.
public struct PushCounts: Sendable, Equatable {
    /// Documents created or updated, confirmed by Firestore.
    public var written = 0
    /// Deletes confirmed by Firestore.
    public var deleted = 0
    /// Writes Firestore refused or that ran out of retries; they stay pending.
    public var failed = 0
    /// Writes skipped because the remote document changed since our last push.
    public var conflicts = 0
    /// Documents read back after a write failed its precondition (each one
    /// Firestore read), to write again from what Firestore holds.
    public var rereads = 0
    /// Of those, documents docsync was creating that already existed in
    /// Firestore (a first sync into a filled collection, or a write of a killed
    /// run that landed): updated from what they held.
    public var alreadyExisting = 0
    /// HTTP requests and request body bytes sent to Firestore.
    public var requests = 0
    public var bytesSent = 0

    public init() {}

    public mutating func add(_ other: PushCounts) {
        written += other.written
        deleted += other.deleted
        failed += other.failed
        conflicts += other.conflicts
        rereads += other.rereads
        alreadyExisting += other.alreadyExisting
        requests += other.requests
        bytesSent += other.bytesSent
    }
}

/// The plan and outcome for one source (one collection).
public struct SourceReport: Sendable, Equatable {
    public var name: String
    public var collection: String
    public var counts = PlanCounts()
    /// Documents with their field changes, sorted by id (at most `detailLimit`).
    public var changes: [DocumentChange] = []
    /// Changes counted but not listed because of the detail limit.
    public var omittedChanges = 0
    public var failures: [RecordFailure] = []
    public var pull = PullCounts()
    public var push: PushCounts?
    /// Why no deletes were planned or applied (incomplete pull, records without a key,
    /// the mass-delete guard); nil when deletes went ahead.
    public var refusal: String?
    /// True when the mass-delete guard refused the plan: nothing of this source is pushed.
    public var isRefusedByDeleteGuard = false
    /// Set when the pull stopped before the end (after retries): the reason.
    public var pullError: String?
    /// The same pull failure, typed: what kind of problem stopped it (set with `pullError`).
    public var pullFailure: RunWideFailure?
    /// Set when writes failed for a reason that is not the documents' own (Firestore
    /// unreachable, authentication): the cause once, with the number of documents it
    /// left pending. Those documents are in `failures` too, marked `isRunWide`.
    public var pushFailure: RunWideFailure?

    public init(name: String, collection: String) {
        self.name = name
        self.collection = collection
    }
}

/// Figures from the pull side.
public struct PullCounts: Sendable, Equatable {
    public var pages = 0
    public var records = 0
    public var skipped = 0
    public var detailCalls = 0
    public var detailCallsSaved = 0

    public init() {}
}

/// One document in a plan.
public struct DocumentChange: Sendable, Equatable {
    public enum Kind: String, Sendable { case create, update, delete }

    public var kind: Kind
    public var id: String
    /// For create: every field (old nil); for update: the changed fields; for delete: empty.
    public var fields: [FieldChange]

    public init(kind: Kind, id: String, fields: [FieldChange]) {
        self.kind = kind
        self.id = id
        self.fields = fields
    }
}

/// A record that could not be pulled, shaped, stored or pushed.
public struct RecordFailure: Sendable, Equatable {
    public enum Phase: String, Sendable { case pull, shape, plan, push }

    public var phase: Phase
    public var key: String?
    public var field: String?
    public var message: String
    /// True when the cause is not this record but the whole push (see
    /// `SourceReport.pushFailure`); people's reports then show it once.
    public var isRunWide = false

    public init(phase: Phase, key: String?, field: String? = nil, message: String, isRunWide: Bool = false) {
        self.phase = phase
        self.key = key
        self.field = field
        self.message = message
        self.isRunWide = isRunWide
    }
}
