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
    ///
    /// With a `mask`, Firestore returns only those top-level fields of each
    /// document (its name and times always); an empty mask returns no fields.
    /// One request per 300 documents; each document counts as one Firestore read.
    /// - Throws: `FirestoreError` when a request fails.
    public func batchGet(_ paths: [DocumentPath], mask: [FieldPath]? = nil) async throws(FirestoreError) -> [DocumentPath: FirestoreDocument] {
        var found: [DocumentPath: FirestoreDocument] = [:]
        let unique = Array(Set(paths))
        var start = 0
        while start < unique.count {
            let chunk = unique[start..<min(start + 300, unique.count)]
            start += chunk.count
            var request: [String: JSONValue] = ["documents": .array(chunk.map { .string(database.name(of: $0)) })]
            if let mask { request["mask"] = Self.maskValue(mask) }
            let body = JSONValue.object(request)
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
        try await list(collection, pageSize: pageSize, mask: nil) { page in documents.append(contentsOf: page) }
        return documents
    }

    /// Lists a collection a page at a time, handing each page to `body`, so
    /// memory holds one page whatever the collection size.
    ///
    /// With a `mask`, only those top-level fields are returned (an empty mask:
    /// names and times only). Each document listed counts as one Firestore read
    /// (an empty page as one); Firestore may return fewer than `pageSize`.
    /// - Throws: `FirestoreError` when a page cannot be read, or what `body` throws.
    public func list(
        _ collection: CollectionPath, pageSize: Int = 300, mask: [FieldPath]?,
        _ body: ([FirestoreDocument]) async throws(FirestoreError) -> Void
    ) async throws(FirestoreError) {
        var pageToken: String?
        var base = url(ofSegments: collection.segments) + "?pageSize=\(max(1, pageSize))"
        if let mask {
            // An empty mask would return every field: name `__name__` instead.
            let texts = mask.isEmpty ? ["__name__"] : mask.map(\.description)
            for text in texts { base += "&mask.fieldPaths=" + Self.percentEncoded(text) }
        }
        repeat {
            var documents: [FirestoreDocument] = []
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
            try await body(documents)
        } while pageToken != nil
    }

    /// A `DocumentMask` (`{"fieldPaths":[…]}`); an empty one names `__name__`
    /// so that no field is returned.
    static func maskValue(_ mask: [FieldPath]) -> JSONValue {
        let texts = mask.isEmpty ? ["__name__"] : mask.map(\.description)
        return ["fieldPaths": .array(texts.map(JSONValue.string))]
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
