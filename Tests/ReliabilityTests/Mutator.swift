import TestSupport
/// Seeded mutations of valid inputs, for the fuzz tests: bit flips, interesting
/// bytes and tokens, deletions, duplications, truncations and splices.
struct Mutator {
    var random: SeededGenerator

    static let interestingBytes: [UInt8] = Array("{}[]\",:\\0-.eE+ntfu/<>&#;'=\n\t ".utf8) + [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xED, 0xF0, 0xF4, 0xF8, 0xFF]

    static let interestingTokens: [String] = [
        "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u0000", "1e999", "-1e-999", "-0", "0.0", "1E+2", "NaN", "Infinity",
        "-Infinity", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
        "[[[[[[[[[[", "]]]]]]", "{{{{", "\"\":", "\"a\":1,\"a\":2", "null", "true", "false", "\"\\\"", "\u{FEFF}", "é", "😀",
        "{\"$double\":\"NaN\"}", "{\"$timestamp\":\"2017-06-21T06:59:30Z\"}", "{\"$bytes\":\"@@\"}", "{\"$reference\":\"a/b/c\"}",
        "{\"$geopoint\":{\"latitude\":91,\"longitude\":0}}", "${HOME}", "${", "{page}", "{", "}", "`a.b`", "a..b", "__name__",
        "<b>", "</b>", "<br>", "<script>", "</script>", "<!--", "-->", "&amp;", "&#0;", "&#55296;", "&#x110000;", "&#xFFFFFFFF;",
        "<a title=\"", "<p class='", "\r\n", "\u{2028}",
    ]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func pick<T>(_ elements: [T]) -> T { elements[int(0...(elements.count - 1))] }

    /// One to four mutations of `input`; `corpus` provides splices.
    mutating func mutate(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<int(1...4) {
            let position = bytes.isEmpty ? 0 : int(0...bytes.count)
            switch int(0...8) {
            case 0 where !bytes.isEmpty:
                let index = min(position, bytes.count - 1)
                bytes[index] ^= UInt8(1) << UInt8(int(0...7))
            case 1 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = pick(Self.interestingBytes)
            case 2:
                bytes.insert(contentsOf: Array(pick(Self.interestingTokens).utf8), at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + int(1...16))
                bytes.removeSubrange(min(position, end)..<end)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + int(1...64))
                let start = min(position, end)
                bytes.insert(contentsOf: bytes[start..<end], at: int(0...bytes.count))
            case 5:
                bytes = Array(bytes.prefix(position))
            case 6:
                let other = pick(corpus)
                if !other.isEmpty {
                    let cut = int(0...other.count)
                    bytes = Array(bytes.prefix(position)) + other[cut...]
                }
            case 7:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            default:
                let count = int(1...8)
                bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: position)
            }
        }
        return bytes
    }

    /// Random bytes, biased towards JSON's and HTML's alphabet.
    mutating func randomBytes(maxLength: Int) -> [UInt8] {
        (0..<int(0...maxLength)).map { _ in
            int(0...3) == 0 ? UInt8.random(in: 0...255, using: &random) : pick(Self.interestingBytes)
        }
    }
}
