/// What a pull delivers, in order: records and per-record failures, then one
/// `finished` summary when the pull ends normally.
///
/// A pull whose events end without `finished`, or that throws, is
/// incomplete: the engine plans no deletes for it.
public enum PullEvent: Sendable {
    /// A shaped record.
    case record(SourceRecord)
    /// A record that failed; the pull goes on.
    case failed(RecordError)
    /// The last event of a pull, with its counts and coverage.
    case finished(PullSummary)
}
