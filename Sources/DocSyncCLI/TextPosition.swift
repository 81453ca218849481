import DocModel

/// A place in a text as an editor shows it: line and column, both from 1.
struct TextPosition: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var column: Int

    var description: String { "line \(line), column \(column)" }

    /// The position of the byte at `offset` in UTF-8 `bytes`; the column counts
    /// characters (Unicode scalars), not bytes.
    init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
    }

    /// `line 3, column 14: unexpected '}'` when `bytes` are not valid JSON, nil when they are.
    static func describeJSONError(in bytes: [UInt8]) -> String? {
        do {
            _ = try JSONValue(parsing: bytes)
            return nil
        } catch {
            return "\(TextPosition(offset: error.offset, in: bytes)): \(error.reason)"
        }
    }
}
