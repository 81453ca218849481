/// Renders help screens and usage lines from `CommandSpec`s, in one fixed shape:
/// OVERVIEW, (discussion), USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, then the
/// pointer to `docsync help <subcommand>`.
enum HelpFormatter {
    static let width = 80
    static let labelColumn = 26

    /// The full help of the command at `path`.
    static func help(for spec: CommandSpec, path: [String]) -> String {
        var sections: [String] = []
        sections.append("OVERVIEW: " + wrap(spec.summary, indent: 10).trimmingLeadingSpaces(10))
        if let discussion = spec.discussion {
            sections.append(discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrap(String($0), indent: 0) }.joined(separator: "\n"))
        }
        sections.append("USAGE: " + usage(for: spec, path: path))

        if !spec.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + spec.arguments.map { row($0.label, $0.help) }.joined(separator: "\n"))
        }
        var optionRows = spec.options.map { option in row(option.label, optionHelp(option)) }
        if path.count == 1 { optionRows.append(row("--version", "Show the version.")) }
        optionRows.append(row("-h, --help", "Show help information."))
        sections.append("OPTIONS:\n" + optionRows.joined(separator: "\n"))

        if !spec.subcommands.isEmpty {
            var rows = spec.subcommands.map { row($0.name, $0.summary) }
            if path.count == 1 { rows.append(row("help", "Show help for a subcommand.")) }
            sections.append("SUBCOMMANDS:\n" + rows.joined(separator: "\n")
                + "\n\n  See '\(helpPointer(path))' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `docsync help <subcommand>`, or `docsync help index <subcommand>` below the top:
    /// the form the parser accepts (`docsync index help create` is not a command).
    static func helpPointer(_ path: [String]) -> String {
        ([path.first ?? "docsync", "help"] + path.dropFirst() + ["<subcommand>"]).joined(separator: " ")
    }

    /// `docsync import <collection> <file> --key <field> [--strict] [--store <path>]`.
    static func usage(for spec: CommandSpec, path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if spec.command == nil, !spec.subcommands.isEmpty {
            parts.append("<subcommand>")
            return parts.joined(separator: " ")
        }
        parts += spec.arguments.map { $0.isOptional ? "[\($0.label)]" : $0.label }
        parts += spec.options.map { $0.isRequired ? $0.synopsis : "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    /// The lines printed for a usage error.
    static func usageError(_ error: UsageError, root: CommandSpec = RootCommand.spec) -> String {
        let spec = CommandLineParser.spec(at: error.commandPath, root: root) ?? root
        let path = error.commandPath.joined(separator: " ")
        return """
            error: \(error.description)
            Usage: \(usage(for: spec, path: error.commandPath))
              See '\(path) --help' for more information.

            """
    }

    private static func optionHelp(_ option: OptionSpec) -> String {
        var notes: [String] = []
        if let allowed = option.allowedValues { notes.append("values: " + allowed.joined(separator: ", ")) }
        if let defaultValue = option.defaultValue { notes.append("default: " + defaultValue) }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }

    /// `  <label>                 help text wrapped at 80 columns`.
    private static func row(_ label: String, _ help: String) -> String {
        let lead = "  " + label
        if lead.count <= labelColumn - 2 {
            let padded = lead + String(repeating: " ", count: labelColumn - lead.count)
            return padded + wrap(help, indent: labelColumn).trimmingLeadingSpaces(labelColumn)
        }
        return lead + "\n" + wrap(help, indent: labelColumn)
    }

    /// Word-wraps `text` to `width`, indenting every line by `indent`.
    private static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > width {
                lines.append(pad + line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(pad + line) }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingLeadingSpaces(_ count: Int) -> String {
        String(dropFirst(Swift.min(count, prefix(while: { $0 == " " }).count)))
    }
}
