import DocModel
import DocSync
import Foundation
import Testing

/// The verify report's JSON (golden file, checked against schema/verify.schema.json
/// by scripts/check-schemas) and text forms.
@Suite(.timeLimit(.minutes(1)))
struct VerifyReportTests {
    static var sample: VerifyReport {
        var report = VerifyReport(isRepair: false)
        var collection = CollectionVerification(collection: "Items")
        collection.missing = ["a1", "a2"]
        collection.changed = [ChangedDocument(id: "b1", fields: ["n", "meta.`units.traded`"])]
        collection.unknown = ["z9"]
        collection.checked = 98
        collection.documentsRead = 98
        report.collections = [collection]
        report.requests = 1
        return report
    }

    @Test func jsonReportMatchesTheGoldenFile() throws {
        let text = Self.sample.json.canonicalText + "\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/verify-report.json")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" { try Data(text.utf8).write(to: url) }
        #expect(text == String(decoding: try Data(contentsOf: url), as: UTF8.self), "re-record with RECORD_SNAPSHOTS=1 if intended")
        let summary = Self.sample.json["summary"]
        #expect(summary?["missing"] == 2)
        #expect(summary?["changed"] == 1)
        #expect(summary?["unknown"] == 1)
    }

    @Test func textReportListsEachKindAndHintsAtRepair() {
        let text = Self.sample.text()
        #expect(text.hasPrefix("Verify: 2 missing, 1 changed, 1 unknown (98 documents read, 1 request).\n"))
        #expect(text.contains("  - a1: missing in Firestore\n"))
        #expect(text.contains("  ~ b1: n, meta.`units.traded` differ\n"))
        #expect(text.contains("  ? z9: in Firestore, unknown to the store\n"))
        #expect(text.contains("hint: run 'docsync verify --repair'"))
        #expect(Self.sample.hasDrift)
        var onlyUnknown = Self.sample
        onlyUnknown.collections[0].missing = []
        onlyUnknown.collections[0].changed = []
        #expect(!onlyUnknown.hasDrift, "unknown documents alone are not drift")
    }
}
