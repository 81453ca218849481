/// The declaration of a command: what it is called, what it takes, and which
/// type runs it. One spec drives both parsing and help, so they cannot drift.
///
/// Adding a command: write a `RunnableCommand` with a `static let spec`, and add
/// the spec to `RootCommand.spec.subcommands`. Commands with subcommands of
/// their own (`docsync index add`) are specs with `subcommands` and no `command`.
struct CommandSpec: Sendable {
    /// The word on the command line (`import`).
    var name: String
    /// One line for OVERVIEW and for the parent's SUBCOMMANDS list.
    var summary: String
    /// Paragraphs shown after OVERVIEW in detailed help.
    var discussion: String?
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    /// The type that runs this command; nil for a pure group of subcommands.
    var command: (any RunnableCommand.Type)?

    /// The option declared with this long name.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The option declared with this short letter.
    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// The subcommand with this name.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

/// A positional argument, shown as `<name>`.
struct ArgumentSpec: Sendable, Equatable {
    var name: String
    var help: String
    var isOptional = false

    var label: String { "<\(name)>" }
}

/// A named option: a flag (`--strict`) or an option with a value (`--key <field>`).
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes (`key`).
    var name: String
    /// A one-letter alias (`-k`), if any.
    var short: Character?
    /// The value's name in help (`field`); nil for a flag.
    var valueName: String?
    var help: String
    /// The value used when the option is absent (shown in help).
    var defaultValue: String?
    /// The only values accepted (shown in help), if limited.
    var allowedValues: [String]?
    var isRequired = false

    var isFlag: Bool { valueName == nil }

    /// A flag such as `--strict`.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// An option taking a value, such as `--key <field>`.
    static func value(
        _ name: String, short: Character? = nil, valueName: String, help: String,
        defaultValue: String? = nil, allowedValues: [String]? = nil, isRequired: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help,
                   defaultValue: defaultValue, allowedValues: allowedValues, isRequired: isRequired)
    }

    /// `--key <field>` (the synopsis form used in usage lines and errors).
    var synopsis: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }

    /// `-k, --key <field>` (the form in the OPTIONS list).
    var label: String {
        (short.map { "-\($0), " } ?? "") + synopsis
    }

    // MARK: Options shared by several commands

    /// `--wait <seconds>`: how long a write waits for another docsync process.
    static let wait = OptionSpec.value(
        "wait", valueName: "seconds",
        help: "How long to wait for another docsync process writing to the store before giving up.",
        defaultValue: "5")
}
