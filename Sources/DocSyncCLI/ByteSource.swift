import DocModel
import FoundationEssentials
import Synchronization

/// A stream of input bytes read in chunks: a file, standard input, or bytes in memory.
public struct ByteSource: Sendable {
    /// Returns up to `maximumCount` bytes; an empty array means the end of input.
    public var read: @Sendable (_ maximumCount: Int) throws -> [UInt8]

    public init(read: @escaping @Sendable (_ maximumCount: Int) throws -> [UInt8]) {
        self.read = read
    }

    /// Reads from an open file until its end.
    public static func file(_ file: OpenFile) -> ByteSource {
        ByteSource { maximumCount in try file.read(upToCount: maximumCount) }
    }

    /// Standard input of the process.
    public static var standardInput: ByteSource { file(.standardInput) }

    /// The given bytes, then the end of input.
    public static func bytes(_ bytes: [UInt8]) -> ByteSource {
        let offset = Mutex(0)
        return ByteSource { maximumCount in
            offset.withLock { start in
                let end = min(bytes.count, start + maximumCount)
                defer { start = end }
                return Array(bytes[start..<end])
            }
        }
    }

    /// The UTF-8 of `text`, then the end of input.
    public static func text(_ text: String) -> ByteSource {
        bytes(Array(text.utf8))
    }
}
