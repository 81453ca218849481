import DocModel
import Testing

@Suite(.timeLimit(.minutes(3))) struct CanonicalJSONTests {
    @Test func keysSortByUTF8BytesWithoutWhitespace() throws {
        let value = try JSONValue(parsing: #"{ "b": 1, "a": {"z": true, "é": null, "Z": 2}, "A": [] }"#)
        #expect(value.canonicalText == #"{"A":[],"a":{"Z":2,"z":true,"é":null},"b":1}"#)
    }

    @Test(arguments: [
        (JSONValue.double(1.0), "1.0"),
        (.double(100), "100.0"),
        (.double(0.1), "0.1"),
        (.double(1e300), "1e+300"),
        (.double(5e-324), "5e-324"),
        (.double(-0.0), "-0.0"),
        (.double(.nan), #"{"$double":"NaN"}"#),
        (.double(.infinity), #"{"$double":"Infinity"}"#),
        (.double(-.infinity), #"{"$double":"-Infinity"}"#),
        (.int(9_007_199_254_740_993), "9007199254740993"),
        (.string("line\nquote\"back\\slash\u{1}é/"), #""line\nquote\"back\\slash\u0001é/""#),
    ])
    func valuesHaveOneSpelling(value: JSONValue, text: String) throws {
        #expect(value.canonicalText == text)
        // And the spelling reads back as the same value.
        #expect(try JSONValue(parsing: text).isCanonicallyEqual(to: value))
    }

    @Test func doublesRoundTripExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bits = UInt64.random(in: .min ... .max, using: &generator)
            let double = Double(bitPattern: bits)
            guard double.isFinite else { continue }
            let back = try JSONValue(parsing: JSONValue.double(double).canonicalText)
            guard case .double(let parsed) = back else { Issue.record("\(double) came back as \(back)"); continue }
            #expect(parsed.bitPattern == double.bitPattern)
        }
    }

    @Test func sourceKeyOrderAndWhitespaceDoNotChangeTheText() throws {
        let a = try JSONValue(parsing: #"{"x": 1, "y": [1.5, "s"]}"#)
        let b = try JSONValue(parsing: "{\"y\":[1.5,\"s\"],\n  \"x\":1}")
        #expect(a.canonicalText == b.canonicalText)
    }

    @Test func integerAndDoubleWithTheSameMagnitudeDiffer() {
        #expect(JSONValue.int(1).canonicalText != JSONValue.double(1).canonicalText)
        #expect(JSONValue.int(1) != JSONValue.double(1))
    }
}
