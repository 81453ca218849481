@testable import DocSyncCLI
import Testing

@Suite(.timeLimit(.minutes(3))) struct RecordReaderTests {
    /// Every item of `input`, read with a given chunk size (small ones cross chunk boundaries).
    private func items(_ input: String, chunkSize: Int = 1 << 16) throws -> [RecordReader.Item] {
        var reader = RecordReader(source: .text(input), chunkSize: chunkSize)
        var result: [RecordReader.Item] = []
        while let item = try reader.next() { result.append(item) }
        return result
    }

    private func record(_ text: String, line: Int, index: Int? = nil) -> RecordReader.Item {
        .record(Array(text.utf8), at: RecordLocation(line: line, arrayIndex: index))
    }

    @Test(arguments: [1, 2, 7, 1 << 16])
    func ndjsonLinesKeepTheirNumbersAcrossBlankLines(chunkSize: Int) throws {
        let input = "{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}"
        #expect(try items(input, chunkSize: chunkSize) == [
            record("{\"a\":1}", line: 1), record("{\"b\":2}\r", line: 4), record("{\"c\":3}", line: 5),
        ])
    }

    @Test func emptyInputHasNoRecords() throws {
        #expect(try items("").isEmpty)
        #expect(try items("\n \n").isEmpty)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try items("\u{FEFF}{\"a\":1}\n") == [record("{\"a\":1}", line: 1)])
        #expect(try items("\u{FEFF}[1]") == [record("1", line: 1, index: 0)])
    }

    @Test(arguments: [1, 3, 1 << 16])
    func arrayElementsAreSplitAtTopLevelCommas(chunkSize: Int) throws {
        let input = """

            [ {"a": "x,]y\\"}", "b": [1, 2]},
              {"c": {"d": []}} ,
            3]

            """
        #expect(try items(input, chunkSize: chunkSize) == [
            record(#"{"a": "x,]y\"}", "b": [1, 2]}"#, line: 2, index: 0),
            record("{\"c\": {\"d\": []}} ", line: 3, index: 1),
            record("3", line: 4, index: 2),
        ])
    }

    @Test func emptyArrayHasNoRecords() throws {
        #expect(try items(" [ ] \n").isEmpty)
    }

    @Test func arrayCutOffInsideAnElementYieldsTheTruncatedElement() throws {
        #expect(try items("[{\"a\":1},\n{\"b\":") == [record("{\"a\":1}", line: 1, index: 0), record("{\"b\":", line: 2, index: 1)])
    }

    @Test func arrayWithoutClosingBracketIsReported() throws {
        #expect(try items("[{\"a\":1},\n{\"b\":2}\n") == [
            record("{\"a\":1}", line: 1, index: 0), record("{\"b\":2}\n", line: 2, index: 1),
            .malformed("the JSON array ends without its closing ']'", at: RecordLocation(line: 3)),
        ])
        #expect(try items("[1,\n") == [
            record("1", line: 1, index: 0),
            .malformed("the JSON array ends without its closing ']'", at: RecordLocation(line: 2)),
        ])
    }

    @Test func dataAfterTheArrayIsReported() throws {
        #expect(try items("[1]\n[2]") == [
            record("1", line: 1, index: 0),
            .malformed("unexpected data after the closing ']' of the array", at: RecordLocation(line: 2)),
        ])
    }

    @Test func emptyElementsAreReported() throws {
        #expect(try items("[1,,2,]") == [
            record("1", line: 1, index: 0),
            .malformed("missing value before ','", at: RecordLocation(line: 1, arrayIndex: 1)),
            record("2", line: 1, index: 2),
            .malformed("a ',' is followed by ']' (trailing comma)", at: RecordLocation(line: 1)),
        ])
    }
}
