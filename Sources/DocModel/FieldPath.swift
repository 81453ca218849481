/// A path to a field inside a document: `brandName`, `meta.total`, `` `units.traded` ``.
///
/// Text form follows Firestore's field-path grammar: segments are joined by `.`;
/// a segment that is not a simple identifier (`[A-Za-z_][A-Za-z0-9_]*`) is written
/// in backticks, with `` ` `` and `\` escaped by a backslash.
public struct FieldPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let segments: [String]

    /// A path from already-split segments (no quoting is interpreted).
    public init(_ segments: [String]) {
        precondition(!segments.isEmpty, "a field path has at least one segment")
        self.segments = segments
    }

    /// Parses the text form (`a.b`, `` `a.b`.c ``).
    /// - Throws: `FieldPathError` naming the column of the mistake.
    public init(parsing text: String) throws(FieldPathError) {
        var segments: [String] = []
        var current = ""
        var index = text.startIndex
        var column = 1
        var segmentHasContent = false
        while index < text.endIndex {
            let character = text[index]
            if character == "`" {
                guard current.isEmpty, !segmentHasContent else {
                    throw FieldPathError(text: text, column: column, reason: "a backtick may only open a segment")
                }
                index = text.index(after: index); column += 1
                var closed = false
                while index < text.endIndex {
                    let inner = text[index]
                    if inner == "\\" {
                        index = text.index(after: index); column += 1
                        guard index < text.endIndex else { break }
                        current.append(text[index])
                    } else if inner == "`" {
                        closed = true
                        break
                    } else {
                        current.append(inner)
                    }
                    index = text.index(after: index); column += 1
                }
                guard closed else { throw FieldPathError(text: text, column: column, reason: "unterminated backtick") }
                guard !current.isEmpty else { throw FieldPathError(text: text, column: column, reason: "empty quoted segment") }
                segmentHasContent = true
                index = text.index(after: index); column += 1
                if index < text.endIndex, text[index] != "." {
                    throw FieldPathError(text: text, column: column, reason: "expected '.' after a quoted segment")
                }
                continue
            }
            if character == "." {
                guard segmentHasContent || !current.isEmpty else {
                    throw FieldPathError(text: text, column: column, reason: "empty segment")
                }
                segments.append(current)
                current = ""
                segmentHasContent = false
            } else {
                guard Self.isIdentifierCharacter(character, first: current.isEmpty) else {
                    throw FieldPathError(text: text, column: column,
                                         reason: "'\(character)' needs backticks (write `...` around the segment)")
                }
                current.append(character)
                segmentHasContent = true
            }
            index = text.index(after: index); column += 1
        }
        guard segmentHasContent || !current.isEmpty else {
            throw FieldPathError(text: text, column: column, reason: text.isEmpty ? "empty field path" : "empty segment")
        }
        segments.append(current)
        self.segments = segments
    }

    /// The text form, quoting segments that are not simple identifiers.
    public var description: String {
        segments.map(Self.quoted).joined(separator: ".")
    }

    /// Writes one segment as Firestore expects it in an update mask or query.
    public static func quoted(_ segment: String) -> String {
        if isSimpleIdentifier(segment) { return segment }
        var out = "`"
        for character in segment {
            if character == "`" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        out.append("`")
        return out
    }

    /// True for `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isSimpleIdentifier(_ segment: String) -> Bool {
        guard let first = segment.first, isIdentifierCharacter(first, first: true) else { return false }
        return segment.allSatisfy { isIdentifierCharacter($0, first: false) }
    }

    private static func isIdentifierCharacter(_ character: Character, first: Bool) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return !first
        default: return false
        }
    }

    /// The path with one more segment.
    public func appending(_ segment: String) -> FieldPath { FieldPath(segments + [segment]) }

    /// True when `self` equals `other` or lies inside it (`a.b` is within `a`).
    public func isWithin(_ other: FieldPath) -> Bool {
        segments.count >= other.segments.count && Array(segments.prefix(other.segments.count)) == other.segments
    }

    /// Orders segment by segment, comparing segment text by UTF-8 bytes.
    public static func < (lhs: FieldPath, rhs: FieldPath) -> Bool {
        lhs.segments.lexicographicallyPrecedes(rhs.segments, by: JSONWriter.utf8Precedes)
    }
}

/// A field path text that could not be read.
public struct FieldPathError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    /// One-based column of the mistake.
    public var column: Int
    public var reason: String

    public init(text: String, column: Int, reason: String) {
        self.text = text
        self.column = column
        self.reason = reason
    }

    public var description: String { "invalid field path \"\(text)\" at column \(column): \(reason)" }
}
