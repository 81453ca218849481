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

    public init() {
        // Most documents are hundreds of bytes: skip the first few doublings.
        bytes.reserveCapacity(256)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .int(let integer): writeInteger(integer)
        case .double(let double): writeDouble(double)
        case .string(let string): writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, member) = members.first {
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                write(member)
            } else if !members.isEmpty {
                // Sorting the (key, value) pairs avoids a second hash lookup per key.
                var entries = Array(members)
                Self.sortByKey(&entries)
                for index in entries.indices {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeString(entries[index].key)
                    bytes.append(UInt8(ascii: ":"))
                    write(entries[index].value)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Sorts object members into canonical key order. Objects are small: an
    /// insertion sort with in-place swaps beats the general sort's moves.
    private static func sortByKey(_ entries: inout [(key: String, value: JSONValue)]) {
        guard entries.count <= 32 else {
            entries.sort { utf8Precedes($0.key, $1.key) }
            return
        }
        entries.withUnsafeMutableBufferPointer { buffer in
            for start in buffer.indices.dropFirst() {
                var index = start
                while index > 0, utf8Precedes(buffer[index].key, buffer[index - 1].key) {
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

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        // One pass: copy runs of plain bytes, escape the rest.
        string.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                start = index + 1
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
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
