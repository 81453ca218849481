#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes canonical JSON: object keys sorted by UTF-8 bytes, no insignificant
/// whitespace, integers as integers, doubles in shortest round-trip form with a
/// `.0` or exponent so that they read back as doubles, non-finite doubles in the
/// extended spelling `{"$double":"NaN"}`.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Sizes, depths and unusual names seen by the last `write(_:)` (see `JSONShapeSummary`).
    public private(set) var summary = JSONShapeSummary()

    public init() {
        // Most documents are hundreds of bytes: skip the first few doublings.
        bytes.reserveCapacity(256)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends the canonical text of `value` and records its `summary`.
    public mutating func write(_ value: JSONValue) {
        summary = JSONShapeSummary()
        summary.storageSize = write(value, depth: 0, isInsideArray: false)
    }

    /// Writes one value at nesting level `depth` (the root is 0); returns its
    /// storage size (see `JSONShapeSummary.storageSize`).
    private mutating func write(_ value: JSONValue, depth: Int, isInsideArray: Bool) -> Int {
        switch value {
        case .null: append("null"); return 1
        case .bool(let flag): append(flag ? "true" : "false"); return 1
        case .int(let integer): writeInteger(integer); return 8
        case .double(let double): writeDouble(double); return 8
        case .string(let string):
            let count = writeString(string)
            if count > summary.longestString { summary.longestString = count }
            return count + 1
        case .array(let elements):
            if depth > 0 { enter(depth, isArrayInArray: isInsideArray) }
            var size = 0
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                size += write(element, depth: depth + 1, isInsideArray: true)
            }
            bytes.append(UInt8(ascii: "]"))
            return size
        case .object(let members):
            if depth > 0 { enter(depth, isArrayInArray: false) }
            var size = 0
            bytes.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, member) = members.first {
                if key.utf8.first == UInt8(ascii: "$") { summary.hasDollarObject = true }
                size += writeKey(key)
                bytes.append(UInt8(ascii: ":"))
                size += write(member, depth: depth + 1, isInsideArray: false)
            } else if !members.isEmpty {
                // Sorting the (key, value) pairs avoids a second hash lookup per key.
                var entries: [SortEntry] = []
                entries.reserveCapacity(members.count)
                for (key, value) in members { entries.append(SortEntry(prefix: Self.sortPrefix(key), key: key, value: value)) }
                Self.sortByKey(&entries)
                for index in entries.indices {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    size += writeKey(entries[index].key)
                    bytes.append(UInt8(ascii: ":"))
                    size += write(entries[index].value, depth: depth + 1, isInsideArray: false)
                }
            }
            bytes.append(UInt8(ascii: "}"))
            return size
        }
    }

    /// Notes a container at nesting level `level` (the root value is level 0).
    private mutating func enter(_ level: Int, isArrayInArray: Bool) {
        if level > summary.maximumDepth { summary.maximumDepth = level }
        if isArrayInArray { summary.hasArrayInArray = true }
    }

    /// Writes an object key and notes unusual names; returns its storage size.
    private mutating func writeKey(_ key: String) -> Int {
        let count = writeString(key)
        if count > summary.longestKey { summary.longestKey = count }
        if count == 0 { summary.hasEmptyKey = true }
        if count >= 2, key.utf8.starts(with: Self.doubleUnderscore) { summary.hasUnderscoreKey = true }
        return count + 1
    }

    /// An object member with the first eight bytes of its key as a big-endian
    /// number: keys whose prefixes differ compare as integers.
    private struct SortEntry {
        var prefix: UInt64
        var key: String
        var value: JSONValue

        /// Canonical key order (`utf8Precedes`), from the prefixes when they differ.
        @inline(__always)
        func precedes(_ other: SortEntry) -> Bool {
            prefix != other.prefix ? prefix < other.prefix : JSONWriter.utf8Precedes(key, other.key)
        }
    }

    /// The first eight UTF-8 bytes of `key`, zero-padded, as a big-endian number.
    /// Different prefixes order keys as their bytes do (a zero pad sorts before
    /// any byte that follows a shorter key's end, as the shorter key sorts first);
    /// equal prefixes need the full comparison.
    private static func sortPrefix(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { utf8 in
            var prefix: UInt64 = 0
            for index in 0..<min(8, utf8.count) {
                prefix |= UInt64(utf8[index]) << UInt64(56 - 8 * index)
            }
            return prefix
        }
    }

    /// Sorts object members into canonical key order. Objects are small: an
    /// insertion sort with in-place swaps beats the general sort's moves.
    private static func sortByKey(_ entries: inout [SortEntry]) {
        guard entries.count <= 32 else {
            entries.sort { $0.precedes($1) }
            return
        }
        entries.withUnsafeMutableBufferPointer { buffer in
            for start in buffer.indices.dropFirst() {
                var index = start
                while index > 0, buffer[index].precedes(buffer[index - 1]) {
                    buffer.swapAt(index, index - 1)
                    index -= 1
                }
            }
        }
    }

    /// Key order of canonical JSON: lexicographic over UTF-8 bytes.
    public static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    private mutating func writeInteger(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as UInt64 covers Int64.min; digits come out last-first, then flip.
        var magnitude = integer.magnitude
        let firstDigit = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[firstDigit...].reverse()
    }

    private mutating func writeDouble(_ double: Double) {
        if double.isNaN { append(#"{"$double":"NaN"}"#); return }
        if double.isInfinite { append(double < 0 ? #"{"$double":"-Infinity"}"# : #"{"$double":"Infinity"}"#); return }
        // Swift's description is the shortest text that round-trips; it always
        // contains '.', 'e' or is "inf"/"nan" (excluded above), so it reads back as a double.
        append(double.description)
    }

    /// Writes a string literal; returns the string's length in UTF-8 bytes.
    @discardableResult
    private mutating func writeString(_ string: String) -> Int {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        var count = 0
        // One pass: copy runs of plain bytes, escape the rest.
        string.withUTF8 { utf8 in
            var start = 0
            while start < utf8.count {
                let end = JSONStringScan.plainRun(utf8, from: start).end
                if start < end { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end])) }
                guard end < utf8.count else { break }
                let byte = utf8[end]
                start = end + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    append("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            count = utf8.count
        }
        bytes.append(UInt8(ascii: "\""))
        return count
    }

    private static let doubleUnderscore: [UInt8] = Array("__".utf8)

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
