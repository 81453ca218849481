import DocModel
import FoundationEssentials

/// Converts between the store's JSON (with its extended spelling) and Firestore's
/// REST `Value` JSON, both ways, exactly.
///
/// | Store (`JSONValue`) | Firestore `Value` |
/// | --- | --- |
/// | `null`, `true` | `{"nullValue":null}`, `{"booleanValue":true}` |
/// | `.int(42)` | `{"integerValue":"42"}` (int64 as a decimal string) |
/// | `.double(1.5)`, NaN, ±Infinity | `{"doubleValue":1.5}`, `{"doubleValue":"NaN"}`, `"Infinity"`, `"-Infinity"` |
/// | `"text"` | `{"stringValue":"text"}` |
/// | `{"$timestamp":"2024-01-02T03:04:05.123456Z"}` | `{"timestampValue":"…"}` (µs, see `Timestamp`) |
/// | `{"$bytes":"AAEC/w=="}` | `{"bytesValue":"AAEC/w=="}` |
/// | `{"$reference":"Coll/doc"}` | `{"referenceValue":"projects/P/databases/D/documents/Coll/doc"}` |
/// | `{"$geopoint":{"latitude":1.5,"longitude":2.5}}` | `{"geoPointValue":{"latitude":1.5,"longitude":2.5}}` |
/// | `[…]` | `{"arrayValue":{"values":[…]}}` |
/// | `{…}` | `{"mapValue":{"fields":{…}}}` |
///
/// A reference to another database keeps its full name in the store:
/// `{"$reference":"projects/other/databases/(default)/documents/C/d"}` (a full name
/// has an odd number of segments, a relative document path an even one, so the two
/// cannot be confused).
///
/// Decoding gives values in the form Firestore hands back (see `canonicalize(_:)`):
/// timestamps in `Timestamp`'s canonical text, bytes in padded standard base64,
/// geopoint coordinates as doubles, `-0.0` as `0.0`.
public struct FirestoreValueCodec: Sendable {
    public var database: FirestoreDatabase

    public init(database: FirestoreDatabase) {
        self.database = database
    }

    /// The one-key objects of the extended spelling.
    public static let extendedKeys = ExtendedValue.keys

    // MARK: - Encoding

    /// Encodes one value to Firestore `Value` JSON.
    /// - Throws: `FirestoreError.invalidValue` naming the offending place.
    public func encode(_ value: JSONValue) throws(FirestoreError) -> JSONValue {
        var writer = ValueWriter(codec: self)
        do {
            _ = try writer.value(value, insideArray: false, depth: 0)
        } catch let problem {
            let place = problem.path.isEmpty ? "" : " at \(problem.path)"
            throw FirestoreError.invalidValue("value\(place): \(problem.reason)")
        }
        return try Self.reparse(writer.out)
    }

    /// Encodes a document's fields to a Firestore `fields` object and checks every
    /// limit: field names, nesting depth, value sizes and the document size.
    /// - Returns: the `fields` JSON and the document's size as Firestore computes it.
    /// - Throws: `FirestoreError.invalidDocument` naming the document and field.
    public func encodeDocument(_ fields: [String: JSONValue], path: DocumentPath) throws(FirestoreError) -> (fields: JSONValue, size: Int) {
        var out: [UInt8] = []
        let size = try writeDocumentFields(fields, path: path, into: &out)
        return (try Self.reparse(out), size)
    }

    /// Writes the `fields` object of a document straight into `out` (no intermediate
    /// tree: this is the push path) and returns the document's size.
    /// - Throws: `FirestoreError.invalidDocument` naming the document and field.
    func writeDocumentFields(_ fields: [String: JSONValue], path: DocumentPath, into out: inout [UInt8]) throws(FirestoreError) -> Int {
        try Self.checkName(path)
        var writer = ValueWriter(codec: self)
        swap(&writer.out, &out)
        defer { swap(&writer.out, &out) }
        var size = FirestoreLimits.nameSize(path) + 32
        do {
            size += try writer.members(fields, depth: 0)
        } catch let problem {
            throw FirestoreError.invalidDocument(document: path.description, field: problem.path, reason: problem.reason)
        }
        if size > FirestoreLimits.maximumDocumentBytes {
            throw FirestoreError.invalidDocument(
                document: path.description, field: nil,
                reason: "the document is \(size) bytes as Firestore counts them; the limit is \(FirestoreLimits.maximumDocumentBytes) (1 MiB). Drop or shorten fields")
        }
        return size
    }

    private static func reparse(_ bytes: [UInt8]) throws(FirestoreError) -> JSONValue {
        do { return try JSONValue(parsing: bytes) } catch {
            throw FirestoreError.invalidValue("internal error: the encoded value is not JSON (\(error))")
        }
    }

    /// Checks a document name against the path-depth and name-size limits
    /// (`DocumentPath` has already checked each id).
    static func checkName(_ path: DocumentPath) throws(FirestoreError) {
        let segments = path.collection.segments.count + 1
        if segments > FirestoreLimits.maximumPathSegments {
            throw FirestoreError.invalidDocument(document: path.description, field: nil,
                                                 reason: "the path has \(segments) segments; Firestore allows \(FirestoreLimits.maximumPathSegments)")
        }
        let size = FirestoreLimits.nameSize(path)
        if size > FirestoreLimits.maximumDocumentNameBytes {
            throw FirestoreError.invalidDocument(document: path.description, field: nil,
                                                 reason: "the document name is \(size) bytes as Firestore counts them; the limit is 6 KiB")
        }
    }

    struct Problem: Error {
        var path: String
        var reason: String
    }

    /// Writes Firestore `Value` JSON as bytes while checking Firestore's rules and
    /// adding up the storage size. The field path is tracked as a stack and only
    /// rendered when something is wrong.
    struct ValueWriter {
        enum Step { case key(String), index(Int) }

        let codec: FirestoreValueCodec
        var out: [UInt8] = []
        var steps: [Step] = []

        init(codec: FirestoreValueCodec) {
            self.codec = codec
        }

        func problem(_ reason: String) -> Problem {
            var text = ""
            for step in steps {
                switch step {
                case .key(let key): text += (text.isEmpty ? "" : ".") + FieldPath.quoted(key)
                case .index(let index): text += "[\(index)]"
                }
            }
            return Problem(path: text, reason: reason)
        }

        /// `{"name":Value,...}` for map fields or document fields.
        mutating func members(_ members: [String: JSONValue], depth: Int) throws(Problem) -> Int {
            out.append(UInt8(ascii: "{"))
            var size = 0
            var first = true
            for (name, member) in members {
                steps.append(.key(name))
                if let reason = FirestoreLimits.problem(withFieldName: name) { throw problem(reason) }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                FirestoreValueCodec.appendString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                size += FirestoreLimits.stringSize(name) + (try value(member, insideArray: false, depth: depth))
                steps.removeLast()
            }
            out.append(UInt8(ascii: "}"))
            return size
        }

        mutating func value(_ value: JSONValue, insideArray: Bool, depth: Int) throws(Problem) -> Int {
            switch value {
            case .null:
                append(#"{"nullValue":null}"#)
                return 1
            case .bool(let flag):
                append(flag ? #"{"booleanValue":true}"# : #"{"booleanValue":false}"#)
                return 1
            case .int(let integer):
                append(#"{"integerValue":""#)
                append(String(integer))
                append(#""}"#)
                return 8
            case .double(let double):
                writeDouble(double)
                return 8
            case .string(let string):
                let count = string.utf8.count
                if count > FirestoreLimits.maximumValueBytes {
                    throw problem("the string is \(count) bytes; Firestore allows \(FirestoreLimits.maximumValueBytes)")
                }
                append(#"{"stringValue":"#)
                FirestoreValueCodec.appendString(string, to: &out)
                out.append(UInt8(ascii: "}"))
                return count + 1
            case .array(let elements):
                if insideArray {
                    throw problem("an array directly inside an array cannot be stored in Firestore; wrap the inner array in a map ({\"values\": [...]})")
                }
                try checkDepth(depth + 1)
                if elements.isEmpty {
                    append(#"{"arrayValue":{}}"#)
                    return 0
                }
                append(#"{"arrayValue":{"values":["#)
                var size = 0
                for (index, element) in elements.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    steps.append(.index(index))
                    size += try self.value(element, insideArray: true, depth: depth + 1)
                    steps.removeLast()
                }
                append("]}}")
                return size
            case .object(let members):
                if members.count == 1, let (key, payload) = members.first, FirestoreValueCodec.extendedKeys.contains(key) {
                    return try extended(key, payload)
                }
                try checkDepth(depth + 1)
                if members.isEmpty {
                    append(#"{"mapValue":{}}"#)
                    return 0
                }
                append(#"{"mapValue":{"fields":"#)
                let size = try self.members(members, depth: depth + 1)
                append("}}")
                return size
            }
        }

        func checkDepth(_ depth: Int) throws(Problem) {
            if depth > FirestoreLimits.maximumDepth {
                throw problem("maps and arrays nest more than \(FirestoreLimits.maximumDepth) levels deep; Firestore allows \(FirestoreLimits.maximumDepth)")
            }
        }

        mutating func append(_ text: String) {
            out.append(contentsOf: text.utf8)
        }

        mutating func writeDouble(_ double: Double) {
            if double.isNaN {
                append(#"{"doubleValue":"NaN"}"#)
            } else if double.isInfinite {
                append(double < 0 ? #"{"doubleValue":"-Infinity"}"# : #"{"doubleValue":"Infinity"}"#)
            } else {
                // Swift's shortest round-trip text (`2.0`, `1e+300`, `-0.0`) is valid JSON.
                append(#"{"doubleValue":"#)
                append(double.description)
                out.append(UInt8(ascii: "}"))
            }
        }

        mutating func extended(_ key: String, _ payload: JSONValue) throws(Problem) -> Int {
            switch (key, payload) {
            case (ExtendedValue.timestamp, .string(let text)):
                let normalized: String
                do { normalized = try Timestamp.normalize(text) } catch { throw problem(error.description) }
                append(#"{"timestampValue":""#)
                append(normalized)
                append(#""}"#)
                return 8
            case (ExtendedValue.bytes, .string(let text)):
                guard let data = FirestoreValueCodec.decodeBase64(text) else {
                    throw problem("$bytes holds \"\(String(text.prefix(20)))\", which is not base64")
                }
                if data.count > FirestoreLimits.maximumValueBytes {
                    throw problem("the bytes value is \(data.count) bytes; Firestore allows \(FirestoreLimits.maximumValueBytes)")
                }
                append(#"{"bytesValue":""#)
                append(data.base64EncodedString())
                append(#""}"#)
                return data.count
            case (ExtendedValue.reference, .string(let text)):
                let (name, size) = try referenceName(text)
                append(#"{"referenceValue":"#)
                FirestoreValueCodec.appendString(name, to: &out)
                out.append(UInt8(ascii: "}"))
                return size
            case (ExtendedValue.geopoint, .object(let members)):
                guard members.count == 2, let latitude = members["latitude"]?.numberValue,
                      let longitude = members["longitude"]?.numberValue
                else {
                    throw problem("$geopoint needs exactly {\"latitude\": number, \"longitude\": number}")
                }
                guard latitude.isFinite, (-90...90).contains(latitude) else {
                    throw problem("geopoint latitude \(latitude) is outside -90...90")
                }
                guard longitude.isFinite, (-180...180).contains(longitude) else {
                    throw problem("geopoint longitude \(longitude) is outside -180...180")
                }
                append(#"{"geoPointValue":{"latitude":"#)
                append(latitude.description)
                append(#","longitude":"#)
                append(longitude.description)
                append("}}")
                return 16
            case (ExtendedValue.double, .string(let text)):
                switch text {
                case "NaN": writeDouble(.nan)
                case "Infinity": writeDouble(.infinity)
                case "-Infinity": writeDouble(-.infinity)
                default: throw problem("$double holds \"\(text)\"; only NaN, Infinity and -Infinity are spelled this way")
                }
                return 8
            default:
                throw problem("\(key) needs a \(key == ExtendedValue.geopoint ? "object" : "string"), not \(payload.kindName)")
            }
        }

        func referenceName(_ text: String) throws(Problem) -> (String, Int) {
            let segments = text.split(separator: "/", omittingEmptySubsequences: false)
            if segments.count >= 7, segments.count % 2 == 1, segments[0] == "projects", segments[2] == "databases",
               segments[4] == "documents"
            {
                let relative = segments[5...].joined(separator: "/")
                guard let document = try? DocumentPath(relative) else {
                    throw problem("$reference \"\(text)\" is not a document name")
                }
                return (text, FirestoreLimits.nameSize(document))
            }
            do {
                let document = try DocumentPath(text)
                return (codec.database.name(of: document), FirestoreLimits.nameSize(document))
            } catch {
                throw problem("$reference must be a document path (Collection/doc): \(error.reason)")
            }
        }
    }

    /// Appends a JSON string literal: quotes, `\"`, `\\` and control characters escaped,
    /// all other UTF-8 bytes copied as they are.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Reads standard or URL-safe base64, padded or not.
    static func decodeBase64(_ text: String) -> Data? {
        var normalized = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let remainder = normalized.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { normalized += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: normalized)
    }

    // MARK: - Decoding

    /// Decodes Firestore `Value` JSON to the store's spelling.
    /// - Throws: `FirestoreError.unexpectedResponse` for JSON that is not a `Value`.
    public func decode(_ value: JSONValue) throws(FirestoreError) -> JSONValue {
        do {
            return try decode(value, path: "")
        } catch let problem {
            let place = problem.path.isEmpty ? "" : " at \(problem.path)"
            throw FirestoreError.unexpectedResponse("value\(place): \(problem.reason)")
        }
    }

    /// Decodes a document's `fields` object (absent for a document without fields).
    /// - Throws: `FirestoreError.unexpectedResponse` naming the document and field.
    public func decodeFields(_ fields: JSONValue?, document: String) throws(FirestoreError) -> [String: JSONValue] {
        guard let fields else { return [:] }
        guard case .object(let members) = fields else {
            throw FirestoreError.unexpectedResponse("document \(document): \"fields\" is \(fields.kindName), not an object")
        }
        var decoded: [String: JSONValue] = [:]
        decoded.reserveCapacity(members.count)
        do {
            for (name, value) in members {
                decoded[name] = try decode(value, path: FieldPath.quoted(name))
            }
        } catch let problem {
            throw FirestoreError.unexpectedResponse("document \(document), field \(problem.path): \(problem.reason)")
        }
        return decoded
    }

    private func decode(_ value: JSONValue, path: String) throws(Problem) -> JSONValue {
        guard case .object(let members) = value, members.count == 1, let (kind, payload) = members.first else {
            throw Problem(path: path, reason: "expected a Value object with one member, found \(value.canonicalText.prefix(60))")
        }
        switch (kind, payload) {
        case ("nullValue", _):
            return .null
        case ("booleanValue", .bool(let flag)):
            return .bool(flag)
        case ("integerValue", .string(let text)):
            guard let integer = Int64(text) else { throw Problem(path: path, reason: "integerValue \"\(text)\" is not an int64") }
            return .int(integer)
        case ("integerValue", .int(let integer)):
            return .int(integer)
        case ("doubleValue", .double(let double)):
            return .double(double == 0 ? 0 : double)
        case ("doubleValue", .int(let integer)):
            return .double(Double(integer))
        case ("doubleValue", .string(let text)):
            switch text {
            case "NaN": return .double(.nan)
            case "Infinity": return .double(.infinity)
            case "-Infinity": return .double(-.infinity)
            default:
                guard let double = Double(text) else { throw Problem(path: path, reason: "doubleValue \"\(text)\" is not a number") }
                return .double(double == 0 ? 0 : double)
            }
        case ("stringValue", .string(let string)):
            return .string(string)
        case ("timestampValue", .string(let text)):
            do {
                return [ExtendedValue.timestamp: .string(try Timestamp.normalize(text))]
            } catch {
                throw Problem(path: path, reason: error.description)
            }
        case ("bytesValue", .string(let text)):
            guard let data = Self.decodeBase64(text) else { throw Problem(path: path, reason: "bytesValue is not base64") }
            return [ExtendedValue.bytes: .string(data.base64EncodedString())]
        case ("referenceValue", .string(let name)):
            if let document = database.documentPath(fromName: name) {
                return [ExtendedValue.reference: .string(document.description)]
            }
            return [ExtendedValue.reference: .string(name)]
        case ("geoPointValue", .object(let point)):
            let latitude = point["latitude"]?.numberValue ?? 0
            let longitude = point["longitude"]?.numberValue ?? 0
            return [ExtendedValue.geopoint: ["latitude": .double(latitude == 0 ? 0 : latitude), "longitude": .double(longitude == 0 ? 0 : longitude)]]
        case ("arrayValue", .object(let array)):
            guard let values = array["values"] else { return [] }
            guard case .array(let elements) = values else { throw Problem(path: path, reason: "arrayValue.values is not an array") }
            var decoded: [JSONValue] = []
            decoded.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                decoded.append(try decode(element, path: path + "[\(index)]"))
            }
            return .array(decoded)
        case ("mapValue", .object(let map)):
            guard let fields = map["fields"] else { return [:] }
            guard case .object(let members) = fields else { throw Problem(path: path, reason: "mapValue.fields is not an object") }
            if members.count == 1, let key = members.keys.first, Self.extendedKeys.contains(key) {
                throw Problem(path: path, reason: "a map whose only key is \(key) cannot be told apart from docsync's extended spelling of a \(key.dropFirst()) value; rename the key")
            }
            var decoded: [String: JSONValue] = [:]
            decoded.reserveCapacity(members.count)
            for (name, member) in members {
                decoded[name] = try decode(member, path: path.isEmpty ? FieldPath.quoted(name) : path + "." + FieldPath.quoted(name))
            }
            return .object(decoded)
        default:
            throw Problem(path: path, reason: "unsupported Value \(kind) holding \(payload.kindName)")
        }
    }

    /// The value as Firestore will hand it back after a write: what a read of a
    /// pushed value decodes to. Storing this form (or comparing in it) means a
    /// round trip through Firestore never shows up as a change.
    /// - Throws: `FirestoreError.invalidValue` when the value cannot be stored in Firestore.
    public func canonicalize(_ value: JSONValue) throws(FirestoreError) -> JSONValue {
        let encoded = try encode(value)
        do {
            return try decode(encoded)
        } catch {
            throw FirestoreError.invalidValue(error.description)
        }
    }
}
