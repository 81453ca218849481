import DocModel

extension FirestoreClient {
    /// One write encoded as its JSON `Write` message.
    struct PreparedWrite: Sendable {
        var index: Int
        var path: DocumentPath
        var name: String
        var json: [UInt8]
        var attempts = 0
    }

    enum WriteOutcome: Sendable {
        case done(Result<String?, FirestoreError>)
        case retry(FirestoreError, retryAfter: Duration?)
    }

    /// Checks and encodes one write, straight to the bytes of its JSON `Write` message.
    /// - Throws: `FirestoreError.invalidDocument` naming the document and the rule it breaks.
    func prepare(_ write: FirestoreWrite, index: Int) throws(FirestoreError) -> PreparedWrite {
        let document = write.path.description
        let name = database.name(of: write.path)
        var json: [UInt8] = []
        json.reserveCapacity(2048)
        func append(_ text: String) { json.append(contentsOf: text.utf8) }
        switch write.operation {
        case .delete:
            try FirestoreValueCodec.checkName(write.path)
            append(#"{"delete":"#)
            FirestoreValueCodec.appendString(name, to: &json)
        case .update(let fields, let mask):
            var body = fields
            var maskTexts: [String]?
            if let mask {
                let (paths, texts) = try Self.normalizedMaskWithTexts(mask, document: document)
                body = Self.fields(fields, coveredBy: paths)
                maskTexts = texts
            }
            append(#"{"update":{"name":"#)
            FirestoreValueCodec.appendString(name, to: &json)
            append(#","fields":"#)
            _ = try codec.writeDocumentFields(body, path: write.path, into: &json)
            append("}")
            if let maskTexts {
                append(#","updateMask":{"fieldPaths":["#)
                for (offset, text) in maskTexts.enumerated() {
                    if offset > 0 { append(",") }
                    FirestoreValueCodec.appendString(text, to: &json)
                }
                append("]}")
            }
        }
        switch write.precondition {
        case .none: break
        case .exists(let flag): append(flag ? #","currentDocument":{"exists":true}"# : #","currentDocument":{"exists":false}"#)
        case .updateTime(let text):
            do {
                let normalized = try Timestamp.normalize(text)
                append(#","currentDocument":{"updateTime":""# + normalized + #""}"#)
            } catch {
                throw FirestoreError.invalidDocument(document: document, field: nil, reason: "precondition: \(error.description)")
            }
        }
        append("}")
        if json.count + 16 > maxRequestBytes {
            throw FirestoreError.invalidDocument(document: document, field: nil,
                                                 reason: "the write is \(json.count) bytes of JSON, more than one request may carry (\(maxRequestBytes))")
        }
        return PreparedWrite(index: index, path: write.path, name: name, json: json)
    }

    /// Checks mask paths and makes them prefix-free and sorted (Firestore's
    /// production behaviour with overlapping paths is undocumented).
    static func normalizedMask(_ mask: [FieldPath], document: String) throws(FirestoreError) -> [FieldPath] {
        try normalizedMaskWithTexts(mask, document: document).paths
    }

    /// `normalizedMask` with each path's text (`FieldPath.description`), computed once.
    static func normalizedMaskWithTexts(_ mask: [FieldPath], document: String) throws(FirestoreError) -> (paths: [FieldPath], texts: [String]) {
        for path in mask {
            for segment in path.segments {
                if let problem = FirestoreLimits.problem(withFieldName: segment) {
                    throw FirestoreError.invalidDocument(document: document, field: path.description, reason: "update mask: \(problem)")
                }
            }
            // A quoted segment is at most twice its bytes plus two backticks: only
            // paths that could be too long need their text measured.
            let bound = path.segments.reduce(path.segments.count - 1) { $0 + 2 * $1.utf8.count + 2 }
            if bound > FirestoreLimits.maximumFieldNameBytes, path.description.utf8.count > FirestoreLimits.maximumFieldNameBytes {
                throw FirestoreError.invalidDocument(document: document, field: String(path.description.prefix(40)) + "…",
                                                     reason: "update mask: a field path may be at most 1500 bytes")
            }
        }
        // Masks usually arrive sorted and unique (FieldMask makes them so): then
        // the set and the sort are not needed.
        var isStrictlyIncreasing = true
        for index in mask.indices.dropFirst() where !(mask[index - 1] < mask[index]) {
            isStrictlyIncreasing = false
            break
        }
        let sorted = isStrictlyIncreasing ? mask : Set(mask).sorted()
        var result: [FieldPath] = []
        result.reserveCapacity(sorted.count)
        for path in sorted where !(result.last.map { path.isWithin($0) } ?? false) {
            result.append(path)
        }
        return (result, result.map(maskText))
    }

    /// `path.description`, without the per-character work for the common case of
    /// segments that are plain ASCII identifiers (which `FieldPath` leaves unquoted).
    static func maskText(_ path: FieldPath) -> String {
        for segment in path.segments where !isPlainIdentifier(segment) {
            return path.description
        }
        return path.segments.count == 1 ? path.segments[0] : path.segments.joined(separator: ".")
    }

    /// `FieldPath.isSimpleIdentifier` over UTF-8 bytes: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isPlainIdentifier(_ segment: String) -> Bool {
        var isFirst = true
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !isFirst: break
            default: return false
            }
            isFirst = false
        }
        return !isFirst
    }

    /// The parts of `fields` the mask names: Firestore only reads those, so only
    /// those are sent (and counted against the size limits).
    static func fields(_ fields: [String: JSONValue], coveredBy mask: [FieldPath]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(mask.count)
        var nested = JSONValue.object([:])
        for path in mask {
            if path.segments.count == 1 {
                if let value = fields[path.segments[0]] { result[path.segments[0]] = value }
                continue
            }
            guard let value = JSONValue.object(fields)[path] else { continue }
            nested.set(value, at: path)
        }
        // Mask paths are prefix-free, so nested paths never meet a top-level one.
        for (key, value) in nested.objectValue ?? [:] { result[key] = value }
        return result
    }

}
