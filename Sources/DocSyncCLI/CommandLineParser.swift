import DocModel

/// Stage 2 of parsing: tokens → a typed command, driven by `CommandSpec`s.
///
/// No I/O happens here. `--help`/`-h` anywhere before `--` asks for the help of
/// the deepest command named so far; `docsync help <command>` does the same.
enum CommandLineParser {
    /// Parses the arguments after the program name.
    /// - Throws: `UsageError` naming the command whose usage to show.
    static func parse(_ arguments: [String], root: CommandSpec = RootCommand.spec) throws(UsageError) -> Invocation {
        let tokens = ArgumentToken.tokenize(arguments)
        var spec = root
        var path = [root.name]
        var index = 0

        // Walk down the subcommands named at the front.
        while spec.command == nil {
            guard index < tokens.count else { return .help(commandPath: path) }
            switch tokens[index] {
            case .value(let word):
                if let child = spec.subcommand(named: word) {
                    spec = child
                    path.append(word)
                    index += 1
                } else if word == "help", path.count == 1 {
                    return try helpTopic(Array(tokens[(index + 1)...]), root: root)
                } else {
                    let names = spec.subcommands.map(\.name) + (path.count == 1 ? ["help"] : [])
                    throw UsageError(.unknownSubcommand(word, suggestion: Suggestion.nearest(to: word, in: names)), commandPath: path)
                }
            case .longOption(let name, _):
                if isHelp(tokens[index]) { return .help(commandPath: path) }
                if name == "version", path.count == 1 { return .version }
                let names = ["help"] + (path.count == 1 ? ["version"] : [])
                throw UsageError(.unknownOption("--\(name)", suggestion: Suggestion.nearest(to: name, in: names).map { "--\($0)" }),
                                 commandPath: path)
            case .shortOptions(let letters):
                if isHelp(tokens[index]) { return .help(commandPath: path) }
                throw UsageError(.unknownOption("-\(letters.prefix(1))", suggestion: nil), commandPath: path)
            }
        }

        let rest = Array(tokens[index...])
        if rest.contains(where: isHelp) { return .help(commandPath: path) }
        let parsed = try parseOptions(rest, spec: spec, path: path)
        guard let command = spec.command else { return .help(commandPath: path) }
        return .run(try command.init(parsing: parsed))
    }

    /// The spec at `path` (`["docsync", "import"]`), if there is one.
    static func spec(at path: [String], root: CommandSpec = RootCommand.spec) -> CommandSpec? {
        var spec = root
        for name in path.dropFirst() {
            guard let child = spec.subcommand(named: name) else { return nil }
            spec = child
        }
        return spec
    }

    private static func isHelp(_ token: ArgumentToken) -> Bool {
        switch token {
        case .longOption(let name, _): name == "help"
        case .shortOptions(let letters): letters == "h"
        case .value: false
        }
    }

    /// `docsync help [command …]`.
    private static func helpTopic(_ tokens: [ArgumentToken], root: CommandSpec) throws(UsageError) -> Invocation {
        var spec = root
        var path = [root.name]
        for token in tokens {
            guard case .value(let word) = token else { continue }
            guard let child = spec.subcommand(named: word) else {
                throw UsageError(.unknownSubcommand(word, suggestion: Suggestion.nearest(to: word, in: spec.subcommands.map(\.name))),
                                 commandPath: path)
            }
            spec = child
            path.append(word)
        }
        return .help(commandPath: path)
    }

    /// Options and positionals of a leaf command, checked against its spec.
    private static func parseOptions(_ tokens: [ArgumentToken], spec: CommandSpec, path: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(commandPath: path, spec: spec)
        var given: [String: [String]] = [:]
        var index = 0

        func nextValue(for option: OptionSpec) throws(UsageError) -> String {
            guard index < tokens.count, case .value(let value) = tokens[index] else {
                throw parsed.error(.missingValue(option: option.synopsis))
            }
            index += 1
            return value
        }

        func record(_ value: String, for option: OptionSpec) throws(UsageError) {
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw parsed.error(.invalidValue(option: "--\(option.name)", value: value, allowed: allowed))
            }
            given[option.name, default: []].append(value)
        }

        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .value(let value):
                parsed.positionals.append(value)
            case .longOption(let name, let attached):
                guard let option = spec.option(named: name) else {
                    let names = spec.options.map(\.name) + ["help"]
                    throw parsed.error(.unknownOption("--\(name)", suggestion: Suggestion.nearest(to: name, in: names).map { "--\($0)" }))
                }
                if option.isFlag {
                    if attached != nil { throw parsed.error(.unexpectedValue(option: "--\(name)")) }
                    parsed.flags.insert(option.name)
                } else {
                    let value: String
                    if let attached { value = attached } else { value = try nextValue(for: option) }
                    try record(value, for: option)
                }
            case .shortOptions(let letters):
                var remaining = Substring(letters)
                while let letter = remaining.first {
                    remaining = remaining.dropFirst()
                    guard let option = spec.option(short: letter) else {
                        throw parsed.error(.unknownOption("-\(letter)", suggestion: nil))
                    }
                    if option.isFlag {
                        parsed.flags.insert(option.name)
                    } else {
                        // `-kid` or `-k id`.
                        try record(remaining.isEmpty ? nextValue(for: option) : String(remaining), for: option)
                        remaining = ""
                    }
                }
            }
        }

        let declared = spec.arguments
        if parsed.positionals.count > declared.count {
            throw parsed.error(.unexpectedArgument(parsed.positionals[declared.count]))
        }
        if let missing = declared.dropFirst(parsed.positionals.count).first(where: { !$0.isOptional }) {
            throw parsed.error(.missingArgument(missing.label))
        }
        for option in spec.options where !option.isFlag {
            if let values = given[option.name] {
                parsed.values[option.name] = values
                parsed.explicitOptions.insert(option.name)
            } else if option.isRequired {
                throw parsed.error(.missingOption(option.synopsis))
            } else if let defaultValue = option.defaultValue {
                parsed.values[option.name] = [defaultValue]
            }
        }
        return parsed
    }
}
