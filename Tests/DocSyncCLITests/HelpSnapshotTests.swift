@testable import DocSyncCLI
import Foundation
import Testing

/// Every help screen is compared with `Snapshots/<name>.txt`;
/// `RECORD_SNAPSHOTS=1 swift test --filter HelpSnapshotTests` re-records them.
@Suite(.timeLimit(.minutes(3))) struct HelpSnapshotTests {
    @Test(arguments: [
        ("docsync-help", ["--help"]),
        ("docsync-import-help", ["import", "--help"]),
        ("docsync-export-help", ["export", "--help"]),
        ("docsync-get-help", ["get", "--help"]),
        ("docsync-count-help", ["count", "--help"]),
        ("docsync-sync-help", ["sync", "--help"]),
        ("docsync-diff-help", ["diff", "--help"]),
        ("docsync-push-help", ["push", "--help"]),
        ("docsync-verify-help", ["verify", "--help"]),
        ("docsync-status-help", ["status", "--help"]),
        ("docsync-init-help", ["init", "--help"]),
        ("docsync-demo-help", ["demo", "--help"]),
    ])
    func helpMatchesSnapshot(name: String, arguments: [String]) async throws {
        let result = await runCLI(arguments)
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        let url = packageRoot.appendingPathComponent("Tests/DocSyncCLITests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(result.stdout.utf8).write(to: url)
        }
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(result.stdout == expected, "help for \(arguments) changed: re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    @Test func helpSubcommandPrintsTheSameAsDashDashHelp() async {
        let viaHelp = await runCLI(["help", "import"])
        let viaFlag = await runCLI(["import", "--help"])
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.status == .success)
    }

    @Test func everyHelpScreenHasTheFixedSections() async {
        for arguments in [["--help"], ["import", "-h"], ["get", "-h"], ["export", "-h"], ["count", "-h"], ["sync", "-h"], ["diff", "-h"],
                          ["push", "-h"], ["status", "-h"], ["init", "-h"], ["index", "list", "-h"]] {
            let text = await runCLI(arguments).stdout
            #expect(text.hasPrefix("OVERVIEW: "))
            #expect(text.contains("\nUSAGE: docsync"))
            #expect(text.contains("\nOPTIONS:\n"))
            #expect(text.contains("  -h, --help              Show help information.\n"))
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE:") {
                #expect(line.count <= 80, "line longer than 80 columns: \(line)")
            }
        }
    }

    @Test func usageErrorPrintsErrorUsageAndPointer() async {
        let result = await runCLI(["import", "Perfume", "f.ndjson", "--key", "id", "--strcit"])
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: unknown option '--strcit'; did you mean '--strict'?
            Usage: docsync import <collection> <file> --key <field> [--strict] [--config <path>] [--store <path>] [--wait <seconds>]
              See 'docsync import --help' for more information.

            """)
    }

    @Test func versionPrintsToStdout() async {
        let result = await runCLI(["--version"])
        #expect(result.status == .success)
        #expect(result.stdout == "docsync \(DocSyncCLI.version)\n")
    }
}
