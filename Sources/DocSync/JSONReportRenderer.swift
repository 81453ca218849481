import DocModel

/// Renders a `SyncReport` as one line of canonical JSON, schema version 1
/// (`schema/report.schema.json`; keys are sorted, so the text is stable).
///
/// Absent old/new values are left out rather than written as `null`, since
/// `null` is a value a field can hold.
public struct JSONReportRenderer: Sendable {
    public static let schemaVersion: Int64 = 1

    public init() {}

    public func render(_ report: SyncReport) -> String {
        value(report).canonicalText + "\n"
    }

    public func value(_ report: SyncReport) -> JSONValue {
        var object: [String: JSONValue] = [
            "version": .int(Self.schemaVersion),
            "dryRun": .bool(report.isDryRun),
            "summary": value(report.totals),
            "sources": .array(report.sources.map(value)),
        ]
        if let push = report.pushTotals { object["push"] = value(push) }
        return .object(object)
    }

    private func value(_ counts: PlanCounts) -> JSONValue {
        [
            "create": .int(Int64(counts.create)), "update": .int(Int64(counts.update)),
            "delete": .int(Int64(counts.delete)), "unchanged": .int(Int64(counts.unchanged)),
            "failed": .int(Int64(counts.failed)),
        ]
    }

    private func value(_ push: PushCounts) -> JSONValue {
        [
            "written": .int(Int64(push.written)), "deleted": .int(Int64(push.deleted)),
            "failed": .int(Int64(push.failed)), "conflicts": .int(Int64(push.conflicts)),
            "rereads": .int(Int64(push.rereads)), "alreadyExisting": .int(Int64(push.alreadyExisting)),
            "requests": .int(Int64(push.requests)), "bytesSent": .int(Int64(push.bytesSent)),
        ]
    }

    private func value(_ source: SourceReport) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(source.name),
            "collection": .string(source.collection),
            "summary": value(source.counts),
            "changes": .array(source.changes.map(value)),
            "omittedChanges": .int(Int64(source.omittedChanges)),
            "failures": .array(source.failures.map(value)),
            "pull": [
                "pages": .int(Int64(source.pull.pages)), "records": .int(Int64(source.pull.records)),
                "skipped": .int(Int64(source.pull.skipped)), "detailCalls": .int(Int64(source.pull.detailCalls)),
                "detailCallsSaved": .int(Int64(source.pull.detailCallsSaved)),
            ],
        ]
        if let push = source.push { object["push"] = value(push) }
        if let refusal = source.refusal { object["refusal"] = .string(refusal) }
        if let pullError = source.pullError { object["pullError"] = .string(pullError) }
        if let failure = source.pullFailure { object["pullFailure"] = value(failure) }
        if let failure = source.pushFailure { object["pushFailure"] = value(failure) }
        return .object(object)
    }

    private func value(_ change: DocumentChange) -> JSONValue {
        .object([
            "op": .string(change.kind.rawValue),
            "id": .string(change.id),
            "fields": .array(change.fields.map { field in
                var object: [String: JSONValue] = ["path": .string(field.path.description)]
                if let old = field.old { object["old"] = old }
                if let new = field.new { object["new"] = new }
                return .object(object)
            }),
        ])
    }

    private func value(_ failure: RunWideFailure) -> JSONValue {
        [
            "kind": .string(failure.kind.rawValue), "message": .string(failure.message),
            "affected": .int(Int64(failure.affected)), "hint": .string(failure.hint),
        ]
    }

    private func value(_ failure: RecordFailure) -> JSONValue {
        var object: [String: JSONValue] = ["phase": .string(failure.phase.rawValue), "message": .string(failure.message)]
        if failure.isRunWide { object["runWide"] = .bool(true) }
        if let key = failure.key { object["key"] = .string(key) }
        if let field = failure.field { object["field"] = .string(field) }
        return .object(object)
    }
}
