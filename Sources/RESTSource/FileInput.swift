/// A local file read in place of an API (offline use, tests).
public struct FileInput: Sendable {
    /// The file's path; relative paths resolve against the working directory.
    public var path: String
    public var format: BodyFormat
    /// Where the records are in a JSON file (ignored for NDJSON).
    public var records: RecordSelection
}
