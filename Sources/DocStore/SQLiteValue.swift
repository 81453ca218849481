import FoundationEssentials

/// A value bound to, or read from, a statement: SQLite's five storage classes.
enum SQLiteValue: Equatable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null

    /// `.text` for a string, `.null` for nil.
    init(_ text: String?) {
        self = text.map(SQLiteValue.text) ?? .null
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(nilLiteral: ()) { self = .null }
    init(floatLiteral value: Double) { self = .real(value) }
}
