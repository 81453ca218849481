import Foundation
import Testing

/// The long campaign runs behind `DOCSYNC_CAMPAIGN=1` (see `scripts/campaign`);
/// CI runs a small, fixed portion of every campaign.
enum Campaign {
    static let isEnabled = ProcessInfo.processInfo.environment["DOCSYNC_CAMPAIGN"] == "1"

    /// `ci` in a normal test run, `full` with `DOCSYNC_CAMPAIGN=1`.
    static func size(ci: Int, full: Int) -> Int { isEnabled ? full : ci }

    /// A base seed: fixed, unless `DOCSYNC_SEED` asks for another (to explore, or to replay a failure).
    static let seed: UInt64 = ProcessInfo.processInfo.environment["DOCSYNC_SEED"].flatMap { UInt64($0) } ?? 20_240_917
}

/// Progress lines for long campaigns (`DOCSYNC_CAMPAIGN_LOG=1`), on stdout.
func campaignLog(_ text: @autoclosure () -> String) {
    guard ProcessInfo.processInfo.environment["DOCSYNC_CAMPAIGN_LOG"] == "1" else { return }
    print("[campaign \(Date().timeIntervalSince1970)] \(text())")
}

extension Tag {
    /// Needs the Firestore emulator or another real process.
    @Tag static var integration: Tag
    /// Runs the built docsync binary.
    @Tag static var endToEnd: Tag
    /// A seeded random campaign (fuzzing, crashes, faults).
    @Tag static var campaign: Tag
}
