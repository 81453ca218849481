/// Finds the end of a run of string bytes that JSON writes as they are (no `"`,
/// no `\`, no control character), eight bytes at a time.
///
/// Shared by `JSONParser` and `JSONWriter`: strings are most of a document's
/// bytes, and a byte-by-byte loop spent most of their time here.
enum JSONStringScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The length of the plain prefix of `bytes[from...]`, and the OR of its bytes
    /// (a value ≥ 0x80 means the prefix has non-ASCII bytes).
    @inline(__always)
    static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (end: Int, or: UInt8) {
        guard let base = bytes.baseAddress else { return (from, 0) }
        let count = bytes.count
        var index = from
        var seen: UInt64 = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is special when it is below 0x20 or equal to `"` or `\`
            // (the "has less than" and "has zero byte" bit tricks; exact as a test).
            let special = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            if special & highBits != 0 { break }
            seen |= word
            index += 8
        }
        var or: UInt8 = seen & highBits != 0 ? 0x80 : 0
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            or |= byte
            index += 1
        }
        return (index, or)
    }
}
