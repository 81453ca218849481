import DocModel

/// Incremental pulls: only records changed since the last run.
public struct IncrementalPull: Sendable {
    /// Field whose highest value becomes the next run's cursor.
    public var field: FieldPath
    /// Query parameter that carries the cursor (unless templates use `{since}`).
    public var param: String?
    /// Cursor for the first run.
    public var initial: String?
    /// Subtracted from the cursor before it is sent: seconds for timestamps, units for numbers.
    public var lag: Double?
}
