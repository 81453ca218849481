/// What a pull stream delivers, in list order.
public enum PullEvent: Sendable {
    /// A shaped record.
    case record(SourceRecord)
    /// A record that failed; the pull goes on.
    case failed(RecordError)
    /// The last event of a complete pull.
    case finished(PullSummary)
}
