import DocModel
import Testing

@Suite(.timeLimit(.minutes(3))) struct FieldPathTests {
    @Test(arguments: [
        ("acc_trade_value_24H", ["acc_trade_value_24H"], "acc_trade_value_24H"),
        ("meta.total", ["meta", "total"], "meta.total"),
        ("`units.traded`", ["units.traded"], "`units.traded`"),
        ("`fluctate-rate`", ["fluctate-rate"], "`fluctate-rate`"),
        ("`한글`.a", ["한글", "a"], "`한글`.a"),
        ("`24H`", ["24H"], "`24H`"),
        ("`a\\`b`", ["a`b"], "`a\\`b`"),
    ])
    func parsesAndQuotes(text: String, segments: [String], rendered: String) throws {
        let path = try FieldPath(parsing: text)
        #expect(path.segments == segments)
        #expect(path.description == rendered)
    }

    @Test(arguments: [
        ("", 1, "empty field path"),
        ("a..b", 3, "empty segment"),
        ("a.", 3, "empty segment"),
        ("units-traded", 6, "'-' needs backticks (write `...` around the segment)"),
        ("`abc", 5, "unterminated backtick"),
        ("`a`b", 4, "expected '.' after a quoted segment"),
    ])
    func malformedPathsPointAtTheColumn(text: String, column: Int, reason: String) {
        #expect(throws: FieldPathError(text: text, column: column, reason: reason)) {
            try FieldPath(parsing: text)
        }
    }

    @Test func prefixRelation() throws {
        #expect(try FieldPath(parsing: "a.b").isWithin(FieldPath(["a"])))
        #expect(!FieldPath(["ab"]).isWithin(FieldPath(["a"])))
    }
}

@Suite(.timeLimit(.minutes(3))) struct DocumentPathTests {
    @Test(arguments: ["a/b", ".", "..", "__x__", ""])
    func invalidIdsAreRefused(id: String) {
        #expect(throws: DocumentPathError.self) { try DocumentID.validate(id) }
    }

    @Test(arguments: ["P501198", "__x", "x__", "a.b", "한글", "___"])
    func validIdsAreAccepted(id: String) throws {
        try DocumentID.validate(id)
    }

    @Test func idsUpTo1500BytesAreAcceptedAndLongerOnesRefused() throws {
        try DocumentID.validate(String(repeating: "x", count: 1500))
        #expect(throws: DocumentPathError.self) { try DocumentID.validate(String(repeating: "x", count: 1501)) }
    }

    @Test func idLimitCountsUTF8Bytes() {
        // 501 three-byte characters = 1,503 bytes.
        #expect(throws: DocumentPathError.self) { try DocumentID.validate(String(repeating: "가", count: 501)) }
    }

    @Test func collectionAndDocumentPaths() throws {
        let path = try DocumentPath("Brands/dior/Perfume/P1")
        #expect(path.collection.description == "Brands/dior/Perfume")
        #expect(path.id == "P1")
        #expect(throws: DocumentPathError.self) { try CollectionPath("Brands/dior") }
        #expect(throws: DocumentPathError.self) { try DocumentPath("Perfume") }
        #expect(throws: DocumentPathError.self) { try CollectionPath("Perfume").document("a/b") }
    }
}
