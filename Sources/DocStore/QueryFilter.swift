import DocModel

/// One condition of a query, with Firestore's meaning.
///
/// Comparisons only match values of the same type class as the operand
/// (numbers compare across integers and doubles), a missing field never
/// matches, and `!=` / `not-in` also skip nulls. `== null` and `== NaN` mean
/// "is null" and "is NaN", as in the Firestore SDKs; `!= null` and `!= NaN`
/// mean "is not null" and "is not NaN".
public indirect enum QueryFilter: Sendable, Hashable {
    /// `field op value`.
    case field(FieldPath, QueryOperator, JSONValue)
    /// The field holds null.
    case isNull(FieldPath)
    /// The field exists and does not hold null.
    case isNotNull(FieldPath)
    /// The field holds NaN.
    case isNaN(FieldPath)
    /// The field exists and holds neither NaN nor null (Firestore's IS_NOT_NAN).
    case isNotNaN(FieldPath)
    /// Every filter matches.
    case and([QueryFilter])
    /// At least one filter matches.
    case or([QueryFilter])

    /// The filter with `== null`, `== NaN`, `!= null`, `!= NaN` turned into the
    /// unary forms the SDKs send, and single-member groups unwrapped.
    var normalized: QueryFilter {
        switch self {
        case .field(let path, .equal, let value) where value.isNull: .isNull(path)
        case .field(let path, .notEqual, let value) where value.isNull: .isNotNull(path)
        case .field(let path, .equal, let value) where QueryValueType(of: value) == .nan: .isNaN(path)
        case .field(let path, .notEqual, let value) where QueryValueType(of: value) == .nan: .isNotNaN(path)
        case .and(let filters) where filters.count == 1: filters[0].normalized
        case .or(let filters) where filters.count == 1: filters[0].normalized
        case .and(let filters): .and(filters.map(\.normalized))
        case .or(let filters): .or(filters.map(\.normalized))
        default: self
        }
    }

    /// Fields Firestore treats as inequality fields: they get an implicit
    /// order-by (after the explicit ones, in field path order).
    var inequalityFields: [FieldPath] {
        switch self {
        case .field(let path, let op, _): op.isInequality ? [path] : []
        case .isNotNull(let path), .isNotNaN(let path): [path]
        case .isNull, .isNaN: []
        case .and(let filters), .or(let filters): filters.flatMap(\.inequalityFields)
        }
    }
}

/// A comparison operator of `QueryFilter.field`, spelled as in the Firestore SDKs.
public enum QueryOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case arrayContains = "array-contains"
    case arrayContainsAny = "array-contains-any"
    case `in` = "in"
    case notIn = "not-in"

    /// The operators that take a list of values.
    public var takesList: Bool { self == .in || self == .notIn || self == .arrayContainsAny }

    /// `<`, `<=`, `>`, `>=`, `!=`, `not-in`: Firestore's inequality operators.
    public var isInequality: Bool {
        switch self {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn: true
        default: false
        }
    }
}
