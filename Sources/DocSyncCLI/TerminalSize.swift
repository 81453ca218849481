#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width of the terminal standard output writes to.
enum TerminalSize {
    /// `COLUMNS` when set to a number, else the terminal's own width when standard
    /// output is a terminal, else nil (a pipe or a file: no width to keep to).
    static func columns(variables: [String: String], isTerminal: Bool) -> Int? {
        if let text = variables["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        guard isTerminal else { return nil }
        var size = winsize()
        // TIOCGWINSZ fills in the window size of the terminal on this descriptor.
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
