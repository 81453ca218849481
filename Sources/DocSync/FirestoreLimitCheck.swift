import DocModel
import Firestore

/// Decides from a document's `JSONShapeSummary` (gathered while its canonical
/// text was written) whether it is certainly within Firestore's limits.
///
/// The summary is exact for plain JSON, so a document that passes here is one
/// the codec would accept too; anything unusual — a name near or over a limit,
/// a one-key `$…` object (extended values have their own rules and sizes), an
/// array inside an array, a `__…` or empty field name, a long path — is left to
/// `FirestoreValueCodec`, whose full check names the field and the reason.
enum FirestoreLimitCheck {
    static func isCertainlyWithinLimits(_ summary: JSONShapeSummary, path: DocumentPath) -> Bool {
        if summary.hasDollarObject || summary.hasArrayInArray || summary.hasEmptyKey || summary.hasUnderscoreKey { return false }
        if summary.longestKey > FirestoreLimits.maximumFieldNameBytes { return false }
        if summary.longestString > FirestoreLimits.maximumValueBytes { return false }
        if summary.maximumDepth > FirestoreLimits.maximumDepth { return false }
        if path.collection.segments.count + 1 > FirestoreLimits.maximumPathSegments { return false }
        let nameSize = FirestoreLimits.nameSize(path)
        if nameSize > FirestoreLimits.maximumDocumentNameBytes { return false }
        // The codec's document size: name + 32 + the fields (keys and values).
        return nameSize + 32 + summary.storageSize <= FirestoreLimits.maximumDocumentBytes
    }
}
