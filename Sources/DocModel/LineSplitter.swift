/// Cuts newline-separated lines (NDJSON) out of bytes that arrive in chunks.
///
/// The one line reader of docsync: the REST source's NDJSON pages and files and
/// the CLI's `import` all read lines through it. Memory stays bounded by the
/// longest line: the buffer is compacted once per chunk, so a file streams in
/// time linear in its size. A `\r` before the `\n` stays part of the line (JSON
/// treats it as whitespace).
///
/// ```swift
/// var splitter = LineSplitter()
/// for range in splitter.append(chunk) { handle(splitter.buffer[range], splitter.number(of: range)) }
/// if let last = splitter.finish() { handle(splitter.buffer[last], …) }
/// ```
public struct LineSplitter: Sendable {
    /// The bytes read so far that are not yet discarded; lines are ranges in it.
    public private(set) var buffer: [UInt8] = []
    private var start = 0
    /// Lines returned so far.
    public private(set) var lineCount = 0

    public init() {}

    /// Adds `chunk` and returns the lines it completed, as ranges in `buffer`
    /// (without the `\n`), in order. The ranges are valid until the next call.
    public mutating func append(_ chunk: some Collection<UInt8>) -> [Range<Int>] {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let searchFrom = buffer.count
        buffer.append(contentsOf: chunk)
        var lines: [Range<Int>] = []
        buffer.withUnsafeBufferPointer { bytes in
            var lineStart = 0
            var position = searchFrom
            while position < bytes.count, let newline = Self.firstNewline(in: bytes, from: position) {
                lines.append(lineStart..<newline)
                lineStart = newline + 1
                position = lineStart
            }
            start = lineStart
        }
        lineCount += lines.count
        return lines
    }

    /// At the end of the input: the last line when it has no `\n` after it.
    public mutating func finish() -> Range<Int>? {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        lineCount += 1
        return start..<buffer.count
    }

    /// Every line of `bytes`, the last one included when it has no `\n`.
    public static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var splitter = LineSplitter()
        var result = splitter.append(bytes).map { splitter.buffer[$0] }
        if let last = splitter.finish() { result.append(splitter.buffer[last]) }
        return result
    }

    /// True for a line of spaces, tabs and `\r` only, which NDJSON readers skip.
    public static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 }
    }

    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            if bytes[index] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
