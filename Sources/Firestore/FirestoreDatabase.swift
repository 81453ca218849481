import DocModel

/// One Firestore database: a project id and a database id (`(default)` unless named).
public struct FirestoreDatabase: Sendable, Hashable, CustomStringConvertible {
    public var projectID: String
    public var databaseID: String

    public init(projectID: String, databaseID: String = "(default)") {
        self.projectID = projectID
        self.databaseID = databaseID
    }

    /// `projects/P/databases/D`, the resource name used in URLs.
    public var resourceName: String { "projects/\(projectID)/databases/\(databaseID)" }

    /// `projects/P/databases/D/documents`, the prefix of every document name.
    public var documentsRoot: String { resourceName + "/documents" }

    /// The full resource name of a document (`projects/P/databases/D/documents/Coll/doc`),
    /// as request bodies and `referenceValue`s spell it.
    public func name(of document: DocumentPath) -> String { documentsRoot + "/" + document.description }

    /// The relative path of a full document name in this database, or nil when the
    /// name belongs to another database or is not a document name.
    public func documentPath(fromName name: String) -> DocumentPath? {
        let prefix = documentsRoot + "/"
        guard name.hasPrefix(prefix) else { return nil }
        return try? DocumentPath(String(name.dropFirst(prefix.count)))
    }

    public var description: String { resourceName }
}
