import DocModel
import FoundationEssentials

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
    /// Only the summary line, run-wide failures and the push totals; no documents.
    public var isSummaryOnly = false
    /// List at most this many changed documents per source (nil: every one the report holds).
    public var changeLimit: Int?
    /// Said after "… and N more changed documents": how to see them all.
    public var moreHint: String?

    public init(useColor: Bool, isSummaryOnly: Bool = false, changeLimit: Int? = nil, moreHint: String? = nil) {
        self.useColor = useColor
        self.isSummaryOnly = isSummaryOnly
        self.changeLimit = changeLimit
        self.moreHint = moreHint
    }

    public func render(_ report: SyncReport) -> String {
        var out = ""
        out += Self.summaryLine(report.totals) + "\n"
        for source in report.sources {
            if let failure = source.pullFailure {
                out += paint("Pull of source \(source.name) failed: ", .red) + failure.message + "\n"
                out += "  hint: " + failure.hint + "\n"
            } else if let pullError = source.pullError {
                out += paint("Pull of source \(source.name) failed: ", .red) + pullError + "\n"
            }
            if let failure = source.pushFailure {
                let scope = source.collection.hasPrefix("(") ? "" : " of \(source.collection)"
                out += paint("Push failed for \(Self.documents(failure.affected))\(scope): ", .red) + failure.message + "\n"
                out += "  hint: " + failure.hint + "\n"
            }
        }
        if isSummaryOnly {
            return out + footer(report)
        }
        for source in report.sources {
            out += "\n\(source.collection) (source \(source.name))\n"
            if let failure = source.pullFailure {
                // The cause is printed once, under the summary line.
                out += "  " + paint("pull failed", .red) + " (\(failure.kind.rawValue); the cause is above)\n"
            } else if let pullError = source.pullError {
                out += "  " + paint("pull failed: ", .red) + pullError + "\n"
            }
            if let refusal = source.refusal {
                out += "  " + paint("refused: ", .red) + refusal + "\n"
            }
            let perRecord = source.failures.filter { !$0.isRunWide }
            if source.changes.isEmpty && perRecord.isEmpty && source.counts.changed == 0 && source.pushFailure == nil {
                out += source.pullError == nil ? "  no changes\n" : "  nothing planned: the pull did not complete\n"
            }
            let listed = changeLimit.map { min($0, source.changes.count) } ?? source.changes.count
            for change in source.changes.prefix(listed) {
                out += render(change)
            }
            let unlisted = source.omittedChanges + source.changes.count - listed
            if unlisted > 0 {
                out += "  … and \(unlisted) more changed documents (" + (moreHint ?? "counted above, not listed") + ")\n"
            }
            for failure in perRecord {
                out += "  " + paint("!", .magenta) + " " + Self.describe(failure) + "\n"
            }
            if let failure = source.pushFailure {
                out += "  " + paint("!", .magenta) + " \(Self.documents(failure.affected)) not pushed (\(failure.kind.rawValue); "
                    + "the cause is above), left pending\n"
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
        let last = footer(report)
        return last.isEmpty ? out : out + "\n" + last
    }

    /// The last line: nothing written (dry run), or what was pushed.
    private func footer(_ report: SyncReport) -> String {
        if report.isDryRun {
            return "Dry run: nothing was written to the store or to Firestore.\n"
        } else if let push = report.pushTotals {
            return "Pushed: " + Self.describe(push) + "\n"
        }
        return ""
    }

    /// `1 document`, `1,997 documents`.
    static func documents(_ count: Int) -> String {
        "\(grouped(count)) \(count == 1 ? "document" : "documents")"
    }

    /// `count` with a comma between groups of three digits, as in English: `1,997`.
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count.magnitude))
        var text = count < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// `Plan: 3 to create, 5 to update, 1 to delete, 991 unchanged, 2 failed.`
    public static func summaryLine(_ counts: PlanCounts) -> String {
        "Plan: \(counts.create) to create, \(counts.update) to update, \(counts.delete) to delete, "
            + "\(counts.unchanged) unchanged, \(counts.failed) failed."
    }

    static func describe(_ push: PushCounts) -> String {
        var text = "\(push.written) written, \(push.deleted) deleted, \(push.failed) failed"
        if push.conflicts > 0 { text += ", \(push.conflicts) conflicts" }
        if push.rereads > 0 {
            text += ", \(push.rereads) read again after a failed precondition"
            if push.alreadyExisting > 0 { text += " (\(push.alreadyExisting) already in Firestore)" }
        }
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
