import DocModel

/// What `docsync verify` found: per collection, the documents where Firestore
/// and the store's belief (`synced_data`) disagree.
public struct VerifyReport: Sendable, Equatable {
    /// True when the belief was repaired (`--repair`).
    public var isRepair: Bool
    public var collections: [CollectionVerification] = []
    /// HTTP requests sent to Firestore (list pages), when measured.
    public var requests = 0

    public init(isRepair: Bool) {
        self.isRepair = isRepair
    }

    public var missing: Int { collections.reduce(0) { $0 + $1.missing.count } }
    public var changed: Int { collections.reduce(0) { $0 + $1.changed.count } }
    public var unknown: Int { collections.reduce(0) { $0 + $1.unknown.count } }
    public var documentsRead: Int { collections.reduce(0) { $0 + $1.documentsRead } }

    /// True when a document docsync believes it pushed is missing or differs.
    /// Unknown documents alone are not drift: other writers may own them.
    public var hasDrift: Bool { missing > 0 || changed > 0 }
}

/// The result of verifying one collection.
public struct CollectionVerification: Sendable, Equatable {
    public var collection: String
    /// Ids the store believes Firestore holds, absent from Firestore.
    public var missing: [String] = []
    /// Documents whose docsync fields in Firestore differ from the store's belief.
    public var changed: [ChangedDocument] = []
    /// Ids Firestore holds that the store does not believe it holds.
    public var unknown: [String] = []
    /// Remote documents compared.
    public var checked = 0
    /// Firestore reads the listing cost (one per document, one per empty page).
    public var documentsRead = 0
    /// Rows whose belief was recorded anew (`--repair`).
    public var repaired = 0

    public init(collection: String) {
        self.collection = collection
    }
}

/// One document whose docsync fields differ, with the differing field paths.
public struct ChangedDocument: Sendable, Equatable {
    public var id: String
    public var fields: [String]

    public init(id: String, fields: [String]) {
        self.id = id
        self.fields = fields
    }
}

extension VerifyReport {
    /// One line of canonical JSON (schema `schema/verify.schema.json`): a
    /// `summary` with integer `missing`, `changed`, `unknown`, then the lists.
    public var json: JSONValue {
        let lists: [JSONValue] = collections.map { collection in
            [
                "collection": .string(collection.collection),
                "missing": .array(collection.missing.map(JSONValue.string)),
                "changed": .array(collection.changed.map { ["id": .string($0.id), "fields": .array($0.fields.map(JSONValue.string))] }),
                "unknown": .array(collection.unknown.map(JSONValue.string)),
                "checked": .int(Int64(collection.checked)),
                "documentsRead": .int(Int64(collection.documentsRead)),
                "repaired": .int(Int64(collection.repaired)),
            ]
        }
        return [
            "version": 1,
            "summary": [
                "missing": .int(Int64(missing)), "changed": .int(Int64(changed)), "unknown": .int(Int64(unknown)),
                "documentsRead": .int(Int64(documentsRead)), "requests": .int(Int64(requests)),
            ],
            "repair": .bool(isRepair),
            "collections": .array(lists),
        ]
    }

    /// The text report: a summary line, then per collection what differs.
    public func text(listLimit: Int = 100) -> String {
        var out = "Verify: \(missing) missing, \(changed) changed, \(unknown) unknown "
            + "(\(documentsRead) documents read, \(requests) \(requests == 1 ? "request" : "requests")).\n"
        for collection in collections {
            out += "\n\(collection.collection): \(collection.checked) in Firestore compared\n"
            var listed = 0
            func line(_ text: String) {
                if listed < listLimit { out += text + "\n" }
                listed += 1
            }
            for id in collection.missing { line("  - \(id): missing in Firestore") }
            for document in collection.changed { line("  ~ \(document.id): \(document.fields.joined(separator: ", ")) differ") }
            for id in collection.unknown { line("  ? \(id): in Firestore, unknown to the store") }
            if listed > listLimit { out += "  … and \(listed - listLimit) more (--format json lists every one)\n" }
            if isRepair && collection.repaired > 0 {
                out += "  repaired: recorded what Firestore holds for \(collection.repaired) documents; "
                    + "'docsync push' now restores them\n"
            }
        }
        if !isRepair && hasDrift {
            out += "\nhint: run 'docsync verify --repair', then 'docsync push', to restore Firestore from the store\n"
        }
        return out
    }
}
