/// A command line docsync cannot run: shown with the command's usage line, exit 64.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case unknownOption(String, suggestion: String?)
        case unknownSubcommand(String, suggestion: String?)
        case missingValue(option: String)
        case unexpectedValue(option: String)
        case invalidValue(option: String, value: String, allowed: [String])
        case missingArgument(String)
        case unexpectedArgument(String)
        case missingOption(String)
        case invalidArgument(String, reason: String)
    }

    public var reason: Reason
    /// The command whose usage to show (`["docsync", "import"]`).
    public var commandPath: [String]

    public init(_ reason: Reason, commandPath: [String]) {
        self.reason = reason
        self.commandPath = commandPath
    }

    public var description: String {
        switch reason {
        case .unknownOption(let option, let suggestion):
            "unknown option '\(option)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownSubcommand(let name, let suggestion):
            "unknown subcommand '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .missingValue(let option):
            "missing value for '\(option)'"
        case .unexpectedValue(let option):
            "'\(option)' takes no value"
        case .invalidValue(let option, let value, let allowed):
            "invalid value '\(value)' for '\(option)'; expected one of: \(allowed.joined(separator: ", "))"
        case .missingArgument(let name):
            "missing argument '\(name)'"
        case .unexpectedArgument(let value):
            "unexpected argument '\(value)'"
        case .missingOption(let option):
            "missing option '\(option)'"
        case .invalidArgument(let name, let reason):
            "invalid \(name): \(reason)"
        }
    }
}
