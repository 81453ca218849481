/// Why a document id or collection path breaks Firestore's rules.
public struct DocumentPathError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "invalid document path \"\(Self.shortened(path))\": \(reason)" }

    static func shortened(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}

/// Firestore's rules for one id (a document id or a collection id).
public enum DocumentID {
    /// Firestore's limit on an id, in UTF-8 bytes.
    public static let maximumBytes = 1500

    /// Checks one id: not empty, at most 1,500 bytes, no `/`, not `.` or `..`, not `__…__`.
    /// - Throws: `DocumentPathError` with the reason.
    public static func validate(_ id: String) throws(DocumentPathError) {
        if id.isEmpty { throw DocumentPathError(path: id, reason: "an id may not be empty") }
        if id.utf8.count > maximumBytes {
            throw DocumentPathError(path: id, reason: "an id may be at most \(maximumBytes) bytes of UTF-8; this one has \(id.utf8.count)")
        }
        if id.contains("/") { throw DocumentPathError(path: id, reason: "an id may not contain '/'") }
        if id == "." || id == ".." { throw DocumentPathError(path: id, reason: "an id may not be '.' or '..'") }
        if id.utf8.count >= 4, id.hasPrefix("__"), id.hasSuffix("__") {
            throw DocumentPathError(path: id, reason: "ids of the form __name__ are reserved by Firestore")
        }
    }
}

/// A collection path such as `Perfume` or `Brands/dior/Perfume` (odd number of segments).
public struct CollectionPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let segments: [String]

    /// - Throws: `DocumentPathError` when a segment breaks the id rules or the count is even.
    public init(_ path: String) throws(DocumentPathError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count % 2 == 1 else {
            throw DocumentPathError(path: path, reason: "a collection path has an odd number of segments (Collection or Collection/doc/Sub)")
        }
        for segment in segments {
            do { try DocumentID.validate(segment) } catch {
                throw DocumentPathError(path: path, reason: error.reason)
            }
        }
        self.segments = segments
    }

    public var description: String { segments.joined(separator: "/") }

    /// The path of the document `id` in this collection.
    /// - Throws: `DocumentPathError` when `id` breaks the id rules.
    public func document(_ id: String) throws(DocumentPathError) -> DocumentPath {
        try DocumentPath(collection: self, id: id)
    }

    public static func < (lhs: CollectionPath, rhs: CollectionPath) -> Bool {
        JSONWriter.utf8Precedes(lhs.description, rhs.description)
    }
}

/// A document's address: collection path + id (`Perfume/P501198`).
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible {
    public let collection: CollectionPath
    public let id: String

    /// - Throws: `DocumentPathError` when `id` breaks the id rules.
    public init(collection: CollectionPath, id: String) throws(DocumentPathError) {
        do { try DocumentID.validate(id) } catch {
            throw DocumentPathError(path: collection.description + "/" + id, reason: error.reason)
        }
        self.collection = collection
        self.id = id
    }

    /// Parses `Collection/id` (or deeper, with an even number of segments).
    /// - Throws: `DocumentPathError`.
    public init(_ path: String) throws(DocumentPathError) {
        guard let slash = path.lastIndex(of: "/") else {
            throw DocumentPathError(path: path, reason: "a document path has an even number of segments (Collection/id)")
        }
        let collection = try CollectionPath(String(path[..<slash]))
        try self.init(collection: collection, id: String(path[path.index(after: slash)...]))
    }

    public var description: String { collection.description + "/" + id }
}
