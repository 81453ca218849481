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

    public init() {}

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
            let keys = members.keys.sorted(by: Self.utf8Precedes)
            for (index, key) in keys.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                write(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
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
        let needsEscaping = string.withUTF8 { utf8 in
            utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if !needsEscaping {
            string.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                append("\\u00")
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
