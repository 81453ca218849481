/// Where a record sits in its input, for error messages: `line 7`, or
/// `array index 4 (line 7)` in a JSON array. Lines and indexes as a user counts
/// them in an editor: lines from 1, array indexes from 0 (as in JSON tools).
struct RecordLocation: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var arrayIndex: Int?

    var description: String {
        arrayIndex.map { "array index \($0) (line \(line))" } ?? "line \(line)"
    }
}
