import DocModel

/// Splits an input stream into raw records without loading it whole.
///
/// The format is detected from the first byte that is not whitespace (a UTF-8
/// byte-order mark is skipped): `[` means one JSON array, whose elements are the
/// records; anything else means NDJSON, one record per line (blank lines are
/// skipped, `\r\n` is fine). Records are returned as bytes; parsing them is the
/// caller's job, so one bad record never stops the others.
///
/// In a JSON array, elements are found by tracking strings and bracket depth;
/// structural problems (a missing `]`, data after it) are reported as
/// `.malformed` items. Memory holds one chunk plus the longest record.
struct RecordReader {
    enum Format: Equatable, Sendable {
        case ndjson
        case jsonArray
    }

    enum Item: Equatable, Sendable {
        /// One record's bytes.
        case record([UInt8], at: RecordLocation)
        /// A problem with the input's structure rather than with one record.
        case malformed(String, at: RecordLocation)
    }

    private enum ArrayState {
        case expectingFirstElement, expectingElement, expectingSeparator, finished
    }

    private let source: ByteSource
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    /// The first byte not yet consumed.
    private var position = 0
    /// The line number of the byte at `position`.
    private var line = 1
    private var isAtEnd = false
    private(set) var format: Format?
    private var arrayState = ArrayState.expectingFirstElement
    private var arrayIndex = 0
    private var deferredItem: Item?
    /// NDJSON: lines are cut by the shared `LineSplitter`.
    private var lines = LineSplitter()
    private var linesStarted = false
    private var pendingLines: [Range<Int>] = []
    private var pendingIndex = 0

    init(source: ByteSource, chunkSize: Int = 1 << 16) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
    }

    /// The next record or problem; nil at the end of input.
    /// - Throws: what the source throws when reading fails.
    mutating func next() throws -> Item? {
        if let deferredItem {
            self.deferredItem = nil
            return deferredItem
        }
        if format == nil { try detectFormat() }
        switch format {
        case .jsonArray: return try nextElement()
        default: return try nextLine()
        }
    }

    // MARK: - Input

    /// Appends a chunk; false at the end of input. Consumed bytes are dropped
    /// first, so offsets relative to `position` stay valid.
    private mutating func fill() throws -> Bool {
        guard !isAtEnd else { return false }
        if position > 0, position >= buffer.count / 2 {
            buffer.removeFirst(position)
            position = 0
        }
        let chunk = try source.read(chunkSize)
        if chunk.isEmpty {
            isAtEnd = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func detectFormat() throws {
        while buffer.count - position < 3, try fill() {}
        if buffer.count - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF {
            position += 3
        }
        var offset = 0
        while true {
            if position + offset == buffer.count {
                guard try fill() else { format = .ndjson; return }
                continue
            }
            let byte = buffer[position + offset]
            if Self.isWhitespace(byte) {
                offset += 1
                continue
            }
            if byte == UInt8(ascii: "[") {
                line += buffer[position..<(position + offset)].count(where: { $0 == 0x0A })
                position += offset + 1
                format = .jsonArray
            } else {
                format = .ndjson
            }
            return
        }
    }

    // MARK: - NDJSON

    private mutating func nextLine() throws -> Item? {
        if !linesStarted {
            // What format detection read ahead goes to the line splitter first.
            linesStarted = true
            pendingLines = lines.append(buffer[position...])
            buffer = []
            position = 0
        }
        while true {
            while pendingIndex < pendingLines.count {
                let range = pendingLines[pendingIndex]
                pendingIndex += 1
                if let item = lineItem(range) { return item }
            }
            let chunk = isAtEnd ? [] : try source.read(chunkSize)
            if chunk.isEmpty {
                isAtEnd = true
                // The last line has no newline (or the file was cut off): still a record.
                guard let last = lines.finish() else { return nil }
                return lineItem(last)
            }
            pendingLines = lines.append(chunk)
            pendingIndex = 0
        }
    }

    /// The record on one line (nil for a blank line), numbered as read.
    private mutating func lineItem(_ range: Range<Int>) -> Item? {
        let number = line
        line += 1
        let record = Array(lines.buffer[range])
        if record.allSatisfy(Self.isWhitespace) { return nil }
        return .record(record, at: RecordLocation(line: number))
    }

    // MARK: - JSON array

    /// Skips whitespace, counting lines; returns the next byte without consuming it.
    private mutating func peekAfterWhitespace() throws -> UInt8? {
        while true {
            if position == buffer.count {
                guard try fill() else { return nil }
                continue
            }
            let byte = buffer[position]
            guard Self.isWhitespace(byte) else { return byte }
            if byte == 0x0A { line += 1 }
            position += 1
        }
    }

    private mutating func nextElement() throws -> Item? {
        while true {
            if arrayState == .finished { return nil }
            guard let byte = try peekAfterWhitespace() else {
                arrayState = .finished
                return .malformed("the JSON array ends without its closing ']'", at: RecordLocation(line: line))
            }
            switch (arrayState, byte) {
            case (.expectingSeparator, UInt8(ascii: ",")):
                position += 1
                arrayState = .expectingElement
                continue
            case (.expectingSeparator, UInt8(ascii: "]")), (.expectingFirstElement, UInt8(ascii: "]")):
                position += 1
                arrayState = .finished
                return try trailingData()
            case (.expectingElement, UInt8(ascii: "]")):
                position += 1
                arrayState = .finished
                let item = Item.malformed("a ',' is followed by ']' (trailing comma)", at: RecordLocation(line: line))
                if let trailing = try trailingData() { deferredItem = trailing }
                return item
            case (.expectingElement, UInt8(ascii: ",")), (.expectingFirstElement, UInt8(ascii: ",")):
                position += 1
                let index = arrayIndex
                arrayIndex += 1
                arrayState = .expectingElement
                return .malformed("missing value before ','", at: RecordLocation(line: line, arrayIndex: index))
            default:
                return try scanElement()
            }
        }
    }

    /// Reads one element up to the `,` or `]` that ends it at depth 0.
    private mutating func scanElement() throws -> Item {
        let startLine = line
        let index = arrayIndex
        arrayIndex += 1
        var offset = 0
        var depth = 0
        var inString = false
        var isEscaped = false
        var newlines = 0
        while true {
            if position + offset == buffer.count {
                guard try fill() else {
                    // The input ends inside the array: the element may be whole or cut off.
                    let record = Array(buffer[position...])
                    position = buffer.count
                    line += newlines
                    arrayState = .finished
                    if depth == 0, !inString {
                        deferredItem = .malformed("the JSON array ends without its closing ']'", at: RecordLocation(line: line))
                    }
                    return .record(record, at: RecordLocation(line: startLine, arrayIndex: index))
                }
                continue
            }
            let byte = buffer[position + offset]
            if byte == 0x0A { newlines += 1 }
            if inString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "]") where depth == 0, UInt8(ascii: ",") where depth == 0:
                    let record = Array(buffer[position..<(position + offset)])
                    position += offset
                    line += newlines
                    arrayState = .expectingSeparator
                    return .record(record, at: RecordLocation(line: startLine, arrayIndex: index))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth = max(0, depth - 1)
                default:
                    break
                }
            }
            offset += 1
        }
    }

    /// After the closing `]`, only whitespace may follow.
    private mutating func trailingData() throws -> Item? {
        guard try peekAfterWhitespace() != nil else { return nil }
        let location = RecordLocation(line: line)
        position = buffer.count
        isAtEnd = true
        return .malformed("unexpected data after the closing ']' of the array", at: location)
    }
}
