#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// printf-style formatting through the C library: `String(cFormat: "%.1fs", 2.25)`.
    ///
    /// docsync's product modules use FoundationEssentials only, where
    /// `String(format:)` does not exist: linking classic Foundation for it cost
    /// about 2 ms of every process start (README, "Start-up"). Only C
    /// conversions work here (`%d`, `%s` with C strings, `%f`, `%x`, …), not `%@`.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space and line breaks
    /// (Unicode White_Space: spaces, tabs, CR, LF, NEL, …).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
