#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import FoundationEssentials
import Synchronization

/// Where a command writes: standard output, standard error, or a buffer in tests.
public struct OutputSink: Sendable {
    /// Writes bytes as they are (no newline added).
    public var writeBytes: @Sendable ([UInt8]) -> Void
    /// True when the sink is a terminal (colour and progress may be used).
    public var isTerminal: Bool

    public init(isTerminal: Bool = false, writeBytes: @escaping @Sendable ([UInt8]) -> Void) {
        self.isTerminal = isTerminal
        self.writeBytes = writeBytes
    }

    /// Writes `text` as UTF-8 (no newline added).
    public func write(_ text: String) {
        writeBytes(Array(text.utf8))
    }

    /// Writes `text` followed by a newline.
    public func writeLine(_ text: String) {
        writeBytes(Array((text + "\n").utf8))
    }

    /// Standard output of the process.
    public static let standardOutput = OutputSink(isTerminal: isatty(STDOUT_FILENO) == 1) { bytes in
        // A closed pipe (`docsync export | head`) must not crash with an exception.
        try? OpenFile.standardOutput.write(bytes)
    }

    /// Standard error of the process.
    public static let standardError = OutputSink(isTerminal: isatty(STDERR_FILENO) == 1) { bytes in
        try? OpenFile.standardError.write(bytes)
    }
}

/// Collects what a command wrote, for tests and for in-process callers.
public final class OutputBuffer: Sendable {
    private let storage = Mutex<[UInt8]>([])

    public init() {}

    /// A sink appending to this buffer.
    public var sink: OutputSink {
        OutputSink { bytes in self.storage.withLock { $0.append(contentsOf: bytes) } }
    }

    /// Everything written so far, as UTF-8 text.
    public var text: String {
        storage.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// Everything written so far.
    public var bytes: [UInt8] {
        storage.withLock { $0 }
    }
}
