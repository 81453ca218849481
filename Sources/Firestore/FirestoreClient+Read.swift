import DocModel

extension FirestoreClient {
    /// Reads one document; nil when it does not exist.
    /// - Throws: `FirestoreError` when Firestore refuses or cannot be reached.
    public func get(_ path: DocumentPath) async throws(FirestoreError) -> FirestoreDocument? {
        switch await sendWithRetries("GET", url(of: path)) {
        case .success(let body):
            return try decodeDocument(Self.parse(body, what: "get \(path)"))
        case .failure(let failure):
            if failure.error.status == .notFound { return nil }
            throw failure.error.naming(path.description)
        }
    }

    /// Reads many documents with `batchGet`; missing documents are absent from the result.
    /// - Throws: `FirestoreError` when a request fails.
    public func batchGet(_ paths: [DocumentPath]) async throws(FirestoreError) -> [DocumentPath: FirestoreDocument] {
        var found: [DocumentPath: FirestoreDocument] = [:]
        let unique = Array(Set(paths))
        var start = 0
        while start < unique.count {
            let chunk = unique[start..<min(start + 300, unique.count)]
            start += chunk.count
            let body: JSONValue = ["documents": .array(chunk.map { .string(database.name(of: $0)) })]
            let response: [UInt8]
            switch await sendWithRetries("POST", documentsURL + ":batchGet", body: body.canonicalBytes) {
            case .success(let bytes): response = bytes
            case .failure(let failure): throw failure.error
            }
            guard case .array(let elements) = try Self.parse(response, what: "batchGet") else {
                throw FirestoreError.unexpectedResponse("batchGet did not answer with a JSON array")
            }
            for element in elements {
                guard let document = element["found"] else { continue }
                let decoded = try decodeDocument(document)
                found[decoded.path] = decoded
            }
        }
        return found
    }

    /// Lists every document of a collection, following page tokens to the end.
    /// - Throws: `FirestoreError` when a page cannot be read.
    public func list(_ collection: CollectionPath, pageSize: Int = 300) async throws(FirestoreError) -> [FirestoreDocument] {
        var documents: [FirestoreDocument] = []
        var pageToken: String?
        let base = url(ofSegments: collection.segments) + "?pageSize=\(max(1, pageSize))"
        repeat {
            let pageURL = base + (pageToken.map { "&pageToken=" + Self.percentEncoded($0) } ?? "")
            let response: [UInt8]
            switch await sendWithRetries("GET", pageURL) {
            case .success(let bytes): response = bytes
            case .failure(let failure): throw failure.error
            }
            let page = try Self.parse(response, what: "list \(collection)")
            if case .array(let items)? = page["documents"] {
                for item in items { documents.append(try decodeDocument(item)) }
            }
            pageToken = page["nextPageToken"]?.stringValue
            if pageToken?.isEmpty == true { pageToken = nil }
        } while pageToken != nil
        return documents
    }

    /// Runs a raw `StructuredQuery` (JSON, as the REST API spells it) under the
    /// database root or under a document (for subcollections).
    /// - Throws: `FirestoreError.invalidRequest` when the query is not an object;
    ///   Firestore's error when it refuses the query.
    public func runQuery(_ structuredQuery: JSONValue, parent: DocumentPath? = nil) async throws(FirestoreError) -> [FirestoreDocument] {
        guard case .object = structuredQuery else {
            throw FirestoreError.invalidRequest("a StructuredQuery is a JSON object, not \(structuredQuery.kindName)")
        }
        let parentURL = parent.map { url(of: $0) } ?? documentsURL
        let body: JSONValue = ["structuredQuery": structuredQuery]
        let response: [UInt8]
        switch await sendWithRetries("POST", parentURL + ":runQuery", body: body.canonicalBytes) {
        case .success(let bytes): response = bytes
        case .failure(let failure): throw failure.error
        }
        guard case .array(let elements) = try Self.parse(response, what: "runQuery") else {
            throw FirestoreError.unexpectedResponse("runQuery did not answer with a JSON array")
        }
        var documents: [FirestoreDocument] = []
        for element in elements {
            if let document = element["document"] { documents.append(try decodeDocument(document)) }
        }
        return documents
    }

    /// Decodes a REST `Document` (name, fields, times) into the store's spelling.
    /// - Throws: `FirestoreError.unexpectedResponse` for a malformed document.
    public func decodeDocument(_ json: JSONValue) throws(FirestoreError) -> FirestoreDocument {
        guard let name = json["name"]?.stringValue else {
            throw FirestoreError.unexpectedResponse("a document without a name")
        }
        guard let path = database.documentPath(fromName: name) else {
            throw FirestoreError.unexpectedResponse("document name \(name) is not in \(database)")
        }
        let fields = try codec.decodeFields(json["fields"], document: path.description)
        return FirestoreDocument(path: path, fields: fields,
                                 createTime: Self.normalizedTime(json["createTime"]?.stringValue),
                                 updateTime: Self.normalizedTime(json["updateTime"]?.stringValue))
    }

    static func normalizedTime(_ text: String?) -> String {
        guard let text else { return "" }
        return (try? Timestamp.normalize(text)) ?? text
    }
}
