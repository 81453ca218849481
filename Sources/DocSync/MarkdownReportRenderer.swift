import FoundationEssentials
import DocModel

/// Renders a `SyncReport` as Markdown for a pull-request comment.
public struct MarkdownReportRenderer: Sendable {
    public init() {}

    public func render(_ report: SyncReport) -> String {
        var out = "### docsync \(report.isDryRun ? "plan" : "sync")\n\n"
        out += "**" + TextReportRenderer.summaryLine(report.totals) + "**\n"
        for source in report.sources {
            out += "\n#### `\(source.collection)` (source `\(source.name)`)\n\n"
            if let failure = source.pullFailure {
                out += "> **Pull failed** (\(failure.kind.rawValue)): \(escape(failure.message))  \n> \(escape(failure.hint))\n\n"
            } else if let pullError = source.pullError {
                out += "> **Pull failed:** \(escape(pullError))\n\n"
            }
            if let failure = source.pushFailure {
                out += "> **Push failed** for \(TextReportRenderer.documents(failure.affected)) (\(failure.kind.rawValue)): "
                    + "\(escape(failure.message))  \n> \(escape(failure.hint))\n\n"
            }
            if let refusal = source.refusal { out += "> **Refused:** \(escape(refusal))\n\n" }
            let counts = source.counts
            out += "\(counts.create) to create, \(counts.update) to update, \(counts.delete) to delete, "
                + "\(counts.unchanged) unchanged, \(counts.failed) failed.\n"
            if !source.changes.isEmpty {
                out += "\n| | Document | Field | Change |\n|---|---|---|---|\n"
                for change in source.changes {
                    let mark = change.kind == .create ? "+" : change.kind == .update ? "~" : "-"
                    if change.fields.isEmpty {
                        out += "| \(mark) | `\(escape(change.id))` | | |\n"
                    }
                    for field in change.fields {
                        let text = change.kind == .create ? ValueFormatter.short(field.new) : ValueFormatter.change(field)
                        out += "| \(mark) | `\(escape(change.id))` | \(code(field.path.description)) | \(escape(text)) |\n"
                    }
                }
            }
            if source.omittedChanges > 0 {
                out += "\n_… and \(source.omittedChanges) more changed documents._\n"
            }
            let perRecord = source.failures.filter { !$0.isRunWide }
            if !perRecord.isEmpty {
                out += "\n**Failed records**\n\n"
                for failure in perRecord {
                    out += "- " + escape(TextReportRenderer.describe(failure)) + "\n"
                }
            }
            if let push = source.push {
                out += "\nPushed: " + TextReportRenderer.describe(push) + "\n"
            }
        }
        if report.isDryRun { out += "\n_Dry run: nothing was written._\n" }
        return out
    }

    /// A code span; one holding backticks is fenced with double backticks and spaces.
    private func code(_ text: String) -> String {
        text.contains("`") ? "`` \(escape(text)) ``" : "`\(escape(text))`"
    }

    private func escape(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }
}
