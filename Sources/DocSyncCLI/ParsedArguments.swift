import DocModel

/// Stage 2's result for one command: positionals and option values, checked
/// against the command's spec (counts, required options, allowed values) and
/// with defaults filled in. Typed commands read it in `init(parsing:)`.
struct ParsedArguments: Sendable {
    /// `["docsync", "import"]`.
    var commandPath: [String]
    var spec: CommandSpec
    /// Positional values, in order.
    var positionals: [String] = []
    /// Values of options by long name, in the order given (defaults when absent).
    var values: [String: [String]] = [:]
    /// Long names of the flags that were given.
    var flags: Set<String> = []
    /// Options the user typed (as opposed to filled in from their defaults).
    var explicitOptions: Set<String> = []

    /// The positional declared as `name`, nil when it is optional and absent.
    func argument(_ name: String) -> String? {
        guard let index = spec.arguments.firstIndex(where: { $0.name == name }), index < positionals.count else { return nil }
        return positionals[index]
    }

    /// The last value given for `--name`, or its default.
    func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// The last value the user typed for `--name`; nil when only its default applies.
    func givenValue(_ name: String) -> String? {
        explicitOptions.contains(name) ? values[name]?.last : nil
    }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// A usage error about this command.
    func error(_ reason: UsageError.Reason) -> UsageError {
        UsageError(reason, commandPath: commandPath)
    }

    // MARK: Typed readers shared by commands

    /// A required positional argument.
    func requiredArgument(_ name: String) throws(UsageError) -> String {
        guard let value = argument(name) else { throw error(.missingArgument("<\(name)>")) }
        return value
    }

    /// A positional argument parsed as a collection path.
    func collectionPath(_ name: String) throws(UsageError) -> CollectionPath {
        let text = try requiredArgument(name)
        do {
            return try CollectionPath(text)
        } catch {
            throw self.error(.invalidArgument("<\(name)> '\(text)'", reason: error.reason))
        }
    }

    /// `--wait`, with its default, as a duration.
    var waitDuration: Duration {
        get throws(UsageError) {
            let text = value(OptionSpec.wait.name) ?? OptionSpec.wait.defaultValue ?? "5"
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite, seconds < 86_400 else {
                throw error(.invalidArgument("--wait '\(text)'", reason: "expected a number of seconds, such as 0.5 or 30"))
            }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }
}
