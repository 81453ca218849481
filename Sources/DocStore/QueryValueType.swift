import DocModel

/// The Firestore type class of a stored value, in Firestore's cross-type order.
///
/// Queries compare and order values type class first: `price > 5` only matches
/// numbers, and an order-by puts every null before every boolean, every
/// boolean before every number, and so on. NaN is a class of its own here
/// (it sorts before every other number and never matches a range), which is
/// how Firestore treats it.
///
/// One-key objects in the store's extended spelling are classified as the
/// Firestore type they stand for (`{"$timestamp": "…"}` is a timestamp, not a
/// map). The raw values are the ranks the SQL compiler emits, so they are part
/// of every user index and must never change.
public enum QueryValueType: Int, Comparable, Sendable, CaseIterable {
    case null = 0
    case boolean = 1
    case nan = 2
    case number = 3
    case timestamp = 4
    case string = 5
    case bytes = 6
    case reference = 7
    case geoPoint = 8
    case array = 9
    case map = 10

    /// The type class of `value`.
    public init(of value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .int: self = .number
        case .double(let double): self = double.isNaN ? .nan : .number
        case .string: self = .string
        case .array: self = .array
        case .object(let members): self = Self.classify(members)
        }
    }

    /// The extended spelling's marker keys and the type each stands for.
    static let extendedKeys: [(key: String, type: QueryValueType)] = [
        (ExtendedValue.double, .number), (ExtendedValue.timestamp, .timestamp), (ExtendedValue.bytes, .bytes),
        (ExtendedValue.reference, .reference), (ExtendedValue.geopoint, .geoPoint),
    ]

    private static func classify(_ members: [String: JSONValue]) -> QueryValueType {
        guard members.count == 1, let (key, inner) = members.first, key.hasPrefix("$") else { return .map }
        switch (key, inner) {
        case (ExtendedValue.double, .string("NaN")): return .nan
        case (ExtendedValue.double, .string("Infinity")), (ExtendedValue.double, .string("-Infinity")): return .number
        case (ExtendedValue.timestamp, .string): return .timestamp
        case (ExtendedValue.bytes, .string): return .bytes
        case (ExtendedValue.reference, .string): return .reference
        case (ExtendedValue.geopoint, .object): return .geoPoint
        default: return .map
        }
    }

    public static func < (lhs: QueryValueType, rhs: QueryValueType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for the classes whose order the SQL compiler expresses with
    /// built-in SQL on one column (everything but geopoints, arrays and maps).
    var isScalar: Bool { self < .geoPoint }

    /// A word for error messages.
    var name: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .nan: "NaN"
        case .number: "number"
        case .timestamp: "timestamp"
        case .string: "string"
        case .bytes: "bytes"
        case .reference: "reference"
        case .geoPoint: "geopoint"
        case .array: "array"
        case .map: "map"
        }
    }
}
