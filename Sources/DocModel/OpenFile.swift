#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// A file read or written with POSIX calls, closed when the last reference goes
/// (the three standard streams are never closed).
///
/// docsync's product modules use FoundationEssentials only, which has no
/// `FileHandle` (README, "Start-up").
public final class OpenFile: Sendable {
    /// The POSIX file descriptor.
    public let descriptor: Int32
    private let closesWhenReleased: Bool

    private init(descriptor: Int32, closesWhenReleased: Bool) {
        self.descriptor = descriptor
        self.closesWhenReleased = closesWhenReleased
    }

    deinit {
        if closesWhenReleased { _ = close(descriptor) }
    }

    public static let standardInput = OpenFile(descriptor: 0, closesWhenReleased: false)
    public static let standardOutput = OpenFile(descriptor: 1, closesWhenReleased: false)
    public static let standardError = OpenFile(descriptor: 2, closesWhenReleased: false)

    /// Opens `path` for reading.
    /// - Throws: `SystemError` with the reason (no such file, permission denied, …).
    public convenience init(reading path: String) throws(SystemError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.current() }
        self.init(descriptor: descriptor, closesWhenReleased: true)
    }

    /// Creates `path` (or empties it) for writing, readable by everyone the umask allows.
    /// - Throws: `SystemError` with the reason.
    public convenience init(creating path: String) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw SystemError.current() }
        self.init(descriptor: descriptor, closesWhenReleased: true)
    }

    /// Takes over an open descriptor (a pipe's read end, say); it is closed when
    /// the last reference goes.
    public convenience init(adopting descriptor: Int32) {
        self.init(descriptor: descriptor, closesWhenReleased: true)
    }

    /// Everything from the current position to the end of the file.
    public func readToEnd() throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        while case let chunk = try read(upToCount: 1 << 20), !chunk.isEmpty { bytes += chunk }
        return bytes
    }

    /// Up to `count` bytes; an empty array at the end of the file.
    public func read(upToCount count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let read = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, count) }
            if read >= 0 {
                bytes.removeLast(count - read)
                return bytes
            }
            if errno != EINTR { throw SystemError.current() }
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result >= 0 {
                written += result
            } else if errno != EINTR {
                throw SystemError.current()
            }
        }
    }
}

/// A failed system call: its `errno` and the C library's words for it.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// `ENOENT`.
    public static let noSuchFile = ENOENT
    /// `EACCES`.
    public static let permissionDenied = EACCES

    /// The error of the last failed call on this thread.
    public static func current() -> SystemError { SystemError(code: errno) }

    /// Such as "No such file or directory".
    public var description: String { String(cString: strerror(code)) }
}
