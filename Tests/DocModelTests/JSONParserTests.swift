import DocModel
import Testing

@Suite(.timeLimit(.minutes(3))) struct JSONParserTests {
    @Test func integerStaysInteger() throws {
        #expect(try JSONValue(parsing: "1") == .int(1))
        #expect(try JSONValue(parsing: "-0") == .int(0))
    }

    @Test func fractionOrExponentMakesDouble() throws {
        #expect(try JSONValue(parsing: "1.0") == .double(1.0))
        #expect(try JSONValue(parsing: "1e2") == .double(100))
        #expect(try JSONValue(parsing: "1E-2") == .double(0.01))
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try JSONValue(parsing: "-0.0")
        guard case .double(let d) = value else { Issue.record("not a double: \(value)"); return }
        #expect(d == 0 && d.sign == .minus)
        #expect(value.canonicalText == "-0.0")
    }

    @Test func int64ExtremesRoundTrip() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(.min))
        #expect(JSONValue.int(.min).canonicalText == "-9223372036854775808")
        // 2^53 + 1 cannot be a double; as an integer it is exact.
        #expect(try JSONValue(parsing: "9007199254740993") == .int(9_007_199_254_740_993))
    }

    @Test func integerBeyondInt64IsAnErrorNotARoundedDouble() {
        #expect(throws: JSONParseError(offset: 0, reason: "integer 12345678901234567890 does not fit in 64 bits")) {
            try JSONValue(parsing: "12345678901234567890")
        }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "9223372036854775808") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "-9223372036854775809") }
    }

    @Test func unicodeEscapesDecode() throws {
        #expect(try JSONValue(parsing: #""\u00e9""#) == .string("é"))
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue(parsing: #""a\n\t\"\\\/b""#) == .string("a\n\t\"\\/b"))
    }

    @Test func loneSurrogateIsAnError() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""\ude00x""#) }
    }

    @Test func invalidUTF8IsAnErrorWithItsOffset() {
        let bytes: [UInt8] = Array(#"{"a":"ok","b":"x"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError(offset: 16, reason: "invalid UTF-8 in string")) {
            try JSONValue(parsing: bytes)
        }
    }

    @Test func deepNestingWithinLimitParsesAndBeyondIsAnError() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue(parsing: ok) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONParseError(offset: 512, reason: "nesting deeper than 512 levels")) {
            try JSONValue(parsing: tooDeep)
        }
    }

    @Test(arguments: [
        ("", "unexpected end of input; expected a value"),
        ("{", "expected a string key, found end of input"),
        (#"{"a":1,}"#, "expected a string key, found '}'"),
        ("[1 2]", "expected ',' or ']' in array, found '2'"),
        ("01", "numbers may not have leading zeros"),
        ("1.", "expected a digit after '.'"),
        ("NaN", #"NaN and Infinity are not JSON; write {"$double": "NaN"} instead"#),
        ("tru", "unexpected 't'; expected a value"),
        (#""abc"#, "unterminated string"),
        ("1 2", "unexpected '2' after the end of the value"),
        (#"{"a":1,"a":2}"#, #"duplicate key "a" in one object"#),
        ("\"a\u{01}\"", "control character 0x1 must be escaped in a string"),
    ])
    func malformedInputIsRejectedWithAReason(input: String, reason: String) {
        do {
            _ = try JSONValue(parsing: input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func extendedDoubleSpellingDecodesToNonFiniteDoubles() throws {
        let nan = try JSONValue(parsing: #"{"$double":"NaN"}"#)
        guard case .double(let d) = nan else { Issue.record("not a double"); return }
        #expect(d.isNaN)
        #expect(try JSONValue(parsing: #"{"$double":"-Infinity"}"#) == .double(-.infinity))
        #expect(try JSONValue(parsing: #"{"$double":"Infinity"}"#) == .double(.infinity))
        // Any other content stays an ordinary object.
        #expect(try JSONValue(parsing: #"{"$double":"x"}"#) == .object(["$double": "x"]))
    }

    @Test func whitespaceAroundTokensIsAllowed() throws {
        #expect(try JSONValue(parsing: " \n{ \"a\" : [ 1 , 2.5 , null , true ] }\t") ==
            .object(["a": .array([.int(1), .double(2.5), .null, .bool(true)])]))
    }
}
