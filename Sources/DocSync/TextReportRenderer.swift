import DocModel

/// Renders a `SyncReport` for people: a summary line, then `+`, `~`, `-` per document.
///
/// ```
/// Plan: 1 to create, 1 to update, 0 to delete, 148 unchanged, 0 failed.
///
/// Perfume (source perfume)
///   + P500001
///       brandName: "Dior"
///   ~ P500002
///       keyNotes: +"Jasmine", -"Rose"
///       price: 10 → 12
/// ```
public struct TextReportRenderer: Sendable {
    public var useColor: Bool

    public init(useColor: Bool) {
        self.useColor = useColor
    }

    public func render(_ report: SyncReport) -> String {
        var out = ""
        out += Self.summaryLine(report.totals) + "\n"
        for source in report.sources {
            out += "\n\(source.collection) (source \(source.name))\n"
            if let pullError = source.pullError {
                out += "  " + paint("pull failed: ", .red) + pullError + "\n"
            }
            if let refusal = source.refusal {
                out += "  " + paint("refused: ", .red) + refusal + "\n"
            }
            if source.changes.isEmpty && source.failures.isEmpty && source.counts.changed == 0 {
                out += "  no changes\n"
            }
            for change in source.changes {
                out += render(change)
            }
            if source.omittedChanges > 0 {
                out += "  … and \(source.omittedChanges) more changed documents (counted above, not listed)\n"
            }
            for failure in source.failures {
                out += "  " + paint("!", .magenta) + " " + Self.describe(failure) + "\n"
            }
            if source.pull.detailCalls > 0 || source.pull.detailCallsSaved > 0 || source.pull.skipped > 0 {
                var parts = ["\(source.pull.records) records from \(source.pull.pages) pages"]
                if source.pull.detailCallsSaved > 0 {
                    parts.append("\(source.pull.detailCalls) detail calls (\(source.pull.detailCallsSaved) saved by the cache)")
                } else if source.pull.detailCalls > 0 {
                    parts.append("\(source.pull.detailCalls) detail calls")
                }
                if source.pull.skipped > 0 { parts.append("\(source.pull.skipped) entries skipped (not records)") }
                out += "  pulled: " + parts.joined(separator: ", ") + "\n"
            }
            if let push = source.push {
                out += "  pushed: " + Self.describe(push) + "\n"
            }
        }
        if report.isDryRun {
            out += "\nDry run: nothing was written to the store or to Firestore.\n"
        } else if let push = report.pushTotals {
            out += "\nPushed: " + Self.describe(push) + "\n"
        }
        return out
    }

    /// `Plan: 3 to create, 5 to update, 1 to delete, 991 unchanged, 2 failed.`
    public static func summaryLine(_ counts: PlanCounts) -> String {
        "Plan: \(counts.create) to create, \(counts.update) to update, \(counts.delete) to delete, "
            + "\(counts.unchanged) unchanged, \(counts.failed) failed."
    }

    static func describe(_ push: PushCounts) -> String {
        var text = "\(push.written) written, \(push.deleted) deleted, \(push.failed) failed"
        if push.conflicts > 0 { text += ", \(push.conflicts) conflicts" }
        text += " (\(push.requests) \(push.requests == 1 ? "request" : "requests"), \(push.bytesSent) bytes)"
        return text
    }

    static func describe(_ failure: RecordFailure) -> String {
        var text = "\(failure.key ?? "(no key)") [\(failure.phase.rawValue)]"
        if let field = failure.field { text += " field \(field)" }
        return text + ": " + failure.message
    }

    private func render(_ change: DocumentChange) -> String {
        var out: String
        switch change.kind {
        case .create: out = "  " + paint("+", .green) + " " + change.id + "\n"
        case .update: out = "  " + paint("~", .yellow) + " " + change.id + "\n"
        case .delete: out = "  " + paint("-", .red) + " " + change.id + "\n"
        }
        for field in change.fields {
            switch change.kind {
            case .create: out += "      \(field.path): \(ValueFormatter.short(field.new))\n"
            case .update: out += "      \(field.path): \(ValueFormatter.change(field))\n"
            case .delete: break
            }
        }
        return out
    }

    enum Color: String { case red = "31", green = "32", yellow = "33", magenta = "35" }

    private func paint(_ text: String, _ color: Color) -> String {
        useColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
