import DocModel
import FoundationEssentials

/// A user index: an expression index on one field of one collection.
///
/// Created by `DocumentStore.createIndex(collection:field:)`; SQLite's planner
/// uses it for equality and range filters and for order-bys on that field in
/// queries over that collection (see `DocumentStore.explain(_:)`).
public struct IndexDefinition: Sendable, Hashable {
    /// The SQLite index name.
    public var name: String
    public var collection: CollectionPath
    public var field: FieldPath
    public var createdAt: Date

    public init(name: String, collection: CollectionPath, field: FieldPath, createdAt: Date) {
        self.name = name
        self.collection = collection
        self.field = field
        self.createdAt = createdAt
    }

    /// `docsync_<collection>_<field>_<hash>`: readable, unique per collection and
    /// field path, and made only of `[A-Za-z0-9_]` so it is a safe identifier.
    static func makeName(collection: CollectionPath, field: FieldPath) -> String {
        func readable(_ text: String) -> String {
            String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }.prefix(24))
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64
        for byte in Array(collection.description.utf8) + [0] + Array(field.description.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let suffix = String(repeating: "0", count: 16 - hex.count) + hex
        return "docsync_\(readable(collection.description))_\(readable(field.description))_\(suffix.prefix(10))"
    }

    /// The CREATE INDEX statement: the compiler's rank and value expressions
    /// for the field, then the id (the implicit last order-by, so equality
    /// filters come out of the index already in order), partial on the
    /// collection (a validated path, quoted as an SQL literal).
    static func createSQL(name: String, collection: CollectionPath, field: FieldPath) throws(QueryError) -> String {
        let expression = try QueryFieldExpression(field)
        return "CREATE INDEX \"\(name)\" ON documents (\(expression.rankSQL), \(expression.valueSQL), id) "
            + "WHERE collection = \(QueryFieldExpression.sqlLiteral(collection.description))"
    }
}
