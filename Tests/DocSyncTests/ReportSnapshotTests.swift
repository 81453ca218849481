import DocModel
import Foundation
import Testing
@testable import DocSync

/// Golden tests of the three report formats. Re-record with `RECORD_SNAPSHOTS=1 swift test --filter ReportSnapshotTests`.
@Suite(.timeLimit(.minutes(3))) struct ReportSnapshotTests {
    static func sampleReport(dryRun: Bool) -> SyncReport {
        var source = SourceReport(name: "perfume", collection: "Perfume")
        source.counts = PlanCounts(create: 1, update: 2, delete: 1, unchanged: 146, failed: 1)
        source.changes = [
            DocumentChange(kind: .create, id: "P500999", fields: [
                FieldChange(path: FieldPath(["brandName"]), old: nil, new: "Dior"),
                FieldChange(path: FieldPath(["keyNotes"]), old: nil, new: ["Rose", "Oud"]),
                FieldChange(path: FieldPath(["rating"]), old: nil, new: .double(4.25)),
            ]),
            DocumentChange(kind: .update, id: "P500037", fields: [
                FieldChange(path: FieldPath(["fragranceFamily"]), old: "Warm & Spicy", new: "Fresh"),
                FieldChange(path: FieldPath(["keyNotes"]), old: ["Teakwood", "Vanilla"], new: ["Vanilla", "Lemon"]),
                FieldChange(path: FieldPath(["longDescription"]), old: .string(String(repeating: "old text ", count: 20)),
                            new: .string(String(repeating: "new text ", count: 20))),
                FieldChange(path: FieldPath(["units.traded"]), old: 10, new: nil),
            ]),
            DocumentChange(kind: .update, id: "P500074", fields: [
                FieldChange(path: FieldPath(["currentSku", "listPrice"]), old: .double(284), new: .double(290.5)),
            ]),
            DocumentChange(kind: .delete, id: "P500111", fields: []),
        ]
        source.failures = [RecordFailure(phase: .pull, key: "P500148", message: "detail request failed: HTTP 500")]
        source.pull.pages = 3
        source.pull.records = 150
        source.pull.detailCalls = 150
        if !dryRun {
            var push = PushCounts()
            push.written = 3
            push.deleted = 1
            push.requests = 1
            push.bytesSent = 2_048
            source.push = push
        }
        return SyncReport(isDryRun: dryRun, sources: [source])
    }

    @Test(arguments: [true, false])
    func textReport(dryRun: Bool) throws {
        try assertSnapshot(TextReportRenderer(useColor: false).render(Self.sampleReport(dryRun: dryRun)),
                           named: "report-\(dryRun ? "plan" : "sync").txt")
    }

    @Test func textReportInColourUsesANSIOnlyAroundMarks() throws {
        let text = TextReportRenderer(useColor: true).render(Self.sampleReport(dryRun: true))
        #expect(text.contains("\u{1B}[32m+\u{1B}[0m P500999"))
        #expect(text.contains("\u{1B}[31m-\u{1B}[0m P500111"))
    }

    @Test(arguments: [true, false])
    func jsonReport(dryRun: Bool) throws {
        let text = JSONReportRenderer().render(Self.sampleReport(dryRun: dryRun))
        try assertSnapshot(text, named: "report-\(dryRun ? "plan" : "sync").json")
        // It is valid JSON with the documented top-level keys.
        let value = try JSONValue(parsing: text)
        #expect(value["version"] == 1)
        #expect(value["summary"]?["create"] == 1)
        #expect(value["sources"]?.arrayValue?.first?["changes"]?.arrayValue?.count == 4)
    }

    @Test func markdownReport() throws {
        try assertSnapshot(MarkdownReportRenderer().render(Self.sampleReport(dryRun: true)), named: "report-plan.md")
    }

    /// A pull that failed as a whole (source `perfume`) and a push that failed for
    /// every document for the same reason (source `offline`).
    static func runWideFailureReport() -> SyncReport {
        var pulled = SourceReport(name: "perfume", collection: "Perfume")
        let pullMessage = "request to https://api.example.com/products?page=1 failed after 4 attempts: cannot connect to the host"
        pulled.pullError = pullMessage
        pulled.pullFailure = RunWideFailure(kind: .unreachable, phase: .pull, message: pullMessage)
        pulled.refusal = "the pull did not complete, so no deletes were planned"
        var pushed = SourceReport(name: "offline", collection: "Items")
        pushed.counts = PlanCounts(create: 3)
        pushed.changes = ["a", "b", "c"].map { DocumentChange(kind: .create, id: $0, fields: [FieldChange(path: FieldPath(["n"]), old: nil, new: 1)]) }
        let pushMessage = "cannot authenticate to Firestore: the token command gcloud exited with status 1; run it by hand to see why"
        pushed.failures = ["a", "b", "c"].map { RecordFailure(phase: .push, key: $0, message: pushMessage, isRunWide: true) }
        pushed.failures.append(RecordFailure(phase: .push, key: "d", message: "document Items/d: Firestore answered INVALID_ARGUMENT: too big"))
        pushed.pushFailure = RunWideFailure(kind: .authentication, phase: .push, message: pushMessage, affected: 3)
        var push = PushCounts()
        push.failed = 4
        pushed.push = push
        return SyncReport(isDryRun: false, sources: [pulled, pushed])
    }

    @Test func runWideFailuresAreReportedOnceInEveryForm() throws {
        let report = Self.runWideFailureReport()
        let text = TextReportRenderer(useColor: false).render(report)
        try assertSnapshot(text, named: "report-run-wide.txt")
        #expect(text.components(separatedBy: "cannot authenticate").count == 2, "the push cause once")
        #expect(text.contains("d [push]: document Items/d"), "a per-document cause is still listed")
        let markdown = MarkdownReportRenderer().render(report)
        try assertSnapshot(markdown, named: "report-run-wide.md")
        #expect(markdown.components(separatedBy: "cannot authenticate").count == 2)
        try assertSnapshot(JSONReportRenderer().render(report), named: "report-run-wide.json")
        #expect(report.runWideFailures.map(\.kind) == [.unreachable, .authentication])
    }

    @Test func summaryOnlyAndListLimit() throws {
        let report = Self.sampleReport(dryRun: true)
        #expect(TextReportRenderer(useColor: false, isSummaryOnly: true).render(report)
            == "Plan: 1 to create, 2 to update, 1 to delete, 146 unchanged, 1 failed.\nDry run: nothing was written to the store or to Firestore.\n")
        let limited = TextReportRenderer(useColor: false, changeLimit: 1, moreHint: "see more with --list all").render(report)
        #expect(limited.contains("  + P500999\n"))
        #expect(!limited.contains("P500037"))
        #expect(limited.contains("  … and 3 more changed documents (see more with --list all)\n"))
    }

    @Test func summaryLineHasTheDocumentedShape() {
        #expect(TextReportRenderer.summaryLine(PlanCounts(create: 3, update: 5, delete: 1, unchanged: 991, failed: 2))
            == "Plan: 3 to create, 5 to update, 1 to delete, 991 unchanged, 2 failed.")
    }

    private func assertSnapshot(_ text: String, named name: String, filePath: String = #filePath) throws {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name)")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "snapshot \(name) differs; re-record with RECORD_SNAPSHOTS=1 if the change is intended")
    }
}
