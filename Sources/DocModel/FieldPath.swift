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
    ///
    /// Works on Unicode scalars, not Characters, so a backtick followed by a
    /// combining mark is still a backtick (field names come from API data).
    /// - Throws: `FieldPathError` naming the column (in scalars) of the mistake.
    public init(parsing text: String) throws(FieldPathError) {
        let scalars = Array(text.unicodeScalars)
        var segments: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0
        var segmentHasContent = false
        func fail(_ reason: String) -> FieldPathError { FieldPathError(text: text, column: index + 1, reason: reason) }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "`" {
                guard current.isEmpty, !segmentHasContent else { throw fail("a backtick may only open a segment") }
                index += 1
                var closed = false
                while index < scalars.count {
                    let inner = scalars[index]
                    if inner == "\\" {
                        index += 1
                        guard index < scalars.count else { break }
                        current.append(scalars[index])
                    } else if inner == "`" {
                        closed = true
                        break
                    } else {
                        current.append(inner)
                    }
                    index += 1
                }
                guard closed else { throw fail("unterminated backtick") }
                guard !current.isEmpty else { throw fail("empty quoted segment") }
                segmentHasContent = true
                index += 1
                if index < scalars.count, scalars[index] != "." { throw fail("expected '.' after a quoted segment") }
                continue
            }
            if scalar == "." {
                guard segmentHasContent || !current.isEmpty else { throw fail("empty segment") }
                segments.append(String(current))
                current = String.UnicodeScalarView()
                segmentHasContent = false
            } else {
                guard Self.isIdentifierScalar(scalar, first: current.isEmpty) else {
                    throw fail("'\(scalar)' needs backticks (write `...` around the segment)")
                }
                current.append(scalar)
                segmentHasContent = true
            }
            index += 1
        }
        guard segmentHasContent || !current.isEmpty else {
            throw fail(text.isEmpty ? "empty field path" : "empty segment")
        }
        segments.append(String(current))
        self.segments = segments
    }

    /// The text form, quoting segments that are not simple identifiers.
    public var description: String {
        segments.map(Self.quoted).joined(separator: ".")
    }

    /// Writes one segment as Firestore expects it in an update mask or query.
    public static func quoted(_ segment: String) -> String {
        if isSimpleIdentifier(segment) { return segment }
        var out = String.UnicodeScalarView()
        out.append("`")
        for scalar in segment.unicodeScalars {
            if scalar == "`" || scalar == "\\" { out.append("\\") }
            out.append(scalar)
        }
        out.append("`")
        return String(out)
    }

    /// True for `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isSimpleIdentifier(_ segment: String) -> Bool {
        guard let first = segment.unicodeScalars.first, isIdentifierScalar(first, first: true) else { return false }
        return segment.unicodeScalars.allSatisfy { isIdentifierScalar($0, first: false) }
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        guard scalar.isASCII else { return false }
        let ascii = UInt8(scalar.value)
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
