import DocModel
import Testing
@testable import DocSync

@Suite struct FieldMaskTests {
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

@Suite struct ValueFormatterTests {
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
