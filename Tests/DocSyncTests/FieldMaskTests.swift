import DocModel
import Testing
@testable import DocSync

@Suite(.timeLimit(.minutes(3))) struct FieldMaskTests {
    @Test func newDocumentNamesEveryTopLevelField() {
        let mask = FieldMask(from: nil, to: ["b": 1, "a": ["x": 1]])
        #expect(mask.paths.map(\.description) == ["a", "b"])
        #expect(mask.fields == ["b": 1, "a": ["x": 1]])
    }

    @Test func onlyChangedPathsAreNamedAndSent() {
        let synced: [String: JSONValue] = ["name": "Rose", "price": 10, "meta": ["a": 1, "b": 2], "gone": true]
        let current: [String: JSONValue] = ["name": "Rose", "price": 12, "meta": ["a": 1, "b": 3], "added": "x"]
        let mask = FieldMask(from: synced, to: current)
        #expect(mask.paths.map(\.description) == ["added", "gone", "meta.b", "price"])
        // The removed field is in the mask but not in the values: Firestore deletes it.
        #expect(mask.fields == ["added": "x", "meta": ["b": 3], "price": 12])
    }

    @Test func identicalDocumentsGiveAnEmptyMask() throws {
        let a = try JSONValue(parsing: #"{"x":[1,2],"y":{"z":1.5}}"#).objectValue!
        let b = try JSONValue(parsing: #"{"y":{"z":1.5},"x":[1,2]}"#).objectValue!
        #expect(FieldMask(from: a, to: b).isEmpty)
    }

    @Test func integerToDoubleIsAChange() {
        #expect(FieldMask(from: ["n": .int(1)], to: ["n": .double(1)]).paths.map(\.description) == ["n"])
    }

    @Test func awkwardNamesAreQuotedInPaths() {
        let mask = FieldMask(from: ["units.traded": 1], to: ["units.traded": 2])
        #expect(mask.paths.map(\.description) == ["`units.traded`"])
    }

    @Test func timestampsAreComparedAsWholeValues() {
        let mask = FieldMask(from: ["t": ["$timestamp": "2020-01-01T00:00:00Z"]],
                             to: ["t": ["$timestamp": "2021-01-01T00:00:00Z"]])
        #expect(mask.paths.map(\.description) == ["t"])
    }
}

@Suite(.timeLimit(.minutes(3))) struct ValueFormatterTests {
    @Test func arraysShowAddedAndRemovedElements() {
        let change = FieldChange(path: FieldPath(["keyNotes"]), old: ["Rose", "Musk"], new: ["Musk", "Jasmine"])
        #expect(ValueFormatter.change(change) == #"+"Jasmine", -"Rose""#)
    }

    @Test func longValuesAreShortened() {
        let text = ValueFormatter.short(.string(String(repeating: "a", count: 200)))
        #expect(text.count == ValueFormatter.maximumLength)
        #expect(text.hasSuffix("…"))
    }
}

@Suite(.timeLimit(.minutes(3))) struct NumberSpellingTests {
    @Test func integerAndDoubleOfTheSameValueAreOnlyASpellingDifference() throws {
        let old = try JSONValue(parsing: #"{"price": 10.0, "tags": [1, 2.5], "meta": {"n": 3}}"#)
        let new = try JSONValue(parsing: #"{"price": 10, "tags": [1.0, 2.5], "meta": {"n": 3.0}}"#)
        #expect(FieldChange.differOnlyInNumberSpelling(old, new))
    }

    @Test func realChangesAreNotSpellingDifferences() throws {
        #expect(!FieldChange.differOnlyInNumberSpelling(["price": 10.5], ["price": 10]))
        #expect(!FieldChange.differOnlyInNumberSpelling(["price": 10], ["price": "10"]))
        #expect(!FieldChange.differOnlyInNumberSpelling(["a": 1], ["a": 1, "b": 2]))
        #expect(!FieldChange.differOnlyInNumberSpelling(["z": .double(-0.0)], ["z": .int(0)]))
    }
}
