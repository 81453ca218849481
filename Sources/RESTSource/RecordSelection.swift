import DocModel

/// Where the records of a response body are.
public enum RecordSelection: Sendable {
    /// An array at a path (nil: the body itself); `ifMissing` decides when the path is absent.
    case array(at: FieldPath?, ifMissing: MissingRecords, nonObjects: NonObjectPolicy)
    /// An object at a path whose members are records; each member's name is stored in `keyField`.
    case map(at: FieldPath?, keyField: FieldPath, nonObjects: NonObjectPolicy)

    /// What to do when the records path is absent from a page.
    public enum MissingRecords: String, Sendable { case error, empty }
}

/// What to do with entries that are not JSON objects (like a ticker map's `"date"`).
public enum NonObjectPolicy: String, Sendable {
    /// Skip and count them in `PullSummary.skipped`.
    case skip
    /// Report each as a failed record.
    case fail
}
