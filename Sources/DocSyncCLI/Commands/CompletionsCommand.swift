import FoundationEssentials

/// `docsync completions bash|zsh|fish`: a completion script built from the command tree.
struct CompletionsCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "completions",
        summary: "Print a shell completion script.",
        discussion: "bash: source <(docsync completions bash). zsh: docsync completions zsh > \"${fpath[1]}/_docsync\". fish: docsync completions fish > ~/.config/fish/completions/docsync.fish.",
        arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.")],
        command: CompletionsCommand.self
    )

    enum Shell: String, CaseIterable { case bash, zsh, fish }

    var shell: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        shell = try arguments.requiredArgument("shell")
        guard Shell(rawValue: shell) != nil else {
            throw arguments.error(.invalidValue(option: "<shell>", value: shell, allowed: Shell.allCases.map(\.rawValue)))
        }
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let commands = RootCommand.spec.subcommands
        switch Shell(rawValue: shell)! {
        case .bash: environment.stdout.write(Self.bash(commands))
        case .zsh: environment.stdout.write(Self.zsh(commands))
        case .fish: environment.stdout.write(Self.fish(commands))
        }
        return .success
    }

    static func flags(_ spec: CommandSpec) -> [String] {
        spec.options.map { "--\($0.name)" } + ["--help"]
    }

    static func bash(_ commands: [CommandSpec]) -> String {
        var out = "# bash completion for docsync\n_docsync() {\n    local cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
        out += "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        out += "        COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " ")) help --help --version\" -- \"$cur\"))\n"
        out += "        return\n    fi\n    case \"${COMP_WORDS[1]}\" in\n"
        for command in commands {
            if command.subcommands.isEmpty {
                out += "        \(command.name)) COMPREPLY=($(compgen -W \"\(flags(command).joined(separator: " "))\" -- \"$cur\")) ;;\n"
                continue
            }
            // A group (`index`): its subcommands first, then the chosen one's options.
            let names = command.subcommands.map(\.name).joined(separator: " ")
            out += "        \(command.name))\n"
            out += "            if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
            out += "                COMPREPLY=($(compgen -W \"\(names) --help\" -- \"$cur\"))\n"
            out += "                return\n            fi\n"
            out += "            case \"${COMP_WORDS[2]}\" in\n"
            for sub in command.subcommands {
                out += "                \(sub.name)) COMPREPLY=($(compgen -W \"\(flags(sub).joined(separator: " "))\" -- \"$cur\")) ;;\n"
            }
            out += "            esac ;;\n"
        }
        out += "    esac\n}\ncomplete -o default -F _docsync docsync\n"
        return out
    }

    static func zsh(_ commands: [CommandSpec]) -> String {
        var out = "#compdef docsync\n_docsync() {\n    local -a commands\n    commands=(\n"
        for command in commands { out += "        '\(command.name):\(escapeSingle(command.summary))'\n" }
        out += "    )\n    if (( CURRENT == 2 )); then\n        _describe 'command' commands\n        return\n    fi\n"
        out += "    case $words[2] in\n"
        for command in commands {
            if !command.subcommands.isEmpty {
                let names = command.subcommands.map { "'\($0.name):\(escapeSingle($0.summary))'" }.joined(separator: " ")
                out += "        \(command.name)) local -a subcommands; subcommands=(\(names)); "
                    + "if (( CURRENT == 3 )); then _describe 'subcommand' subcommands; else _arguments '--help[Show help.]' '*:file:_files'; fi ;;\n"
                continue
            }
            let options = command.options.map { "'--\($0.name)[\(escapeBrackets(escapeSingle($0.help)))]'" } + ["'--help[Show help.]'"]
            out += "        \(command.name)) _arguments \(options.joined(separator: " ")) '*:file:_files' ;;\n"
        }
        out += "    esac\n}\n_docsync \"$@\"\n"
        return out
    }

    static func fish(_ commands: [CommandSpec]) -> String {
        var out = "# fish completion for docsync\ncomplete -c docsync -f\n"
        for command in commands {
            out += "complete -c docsync -n '__fish_use_subcommand' -a \(command.name) -d '\(escapeSingle(command.summary))'\n"
        }
        for command in commands where !command.subcommands.isEmpty {
            let names = command.subcommands.map(\.name).joined(separator: " ")
            for sub in command.subcommands {
                out += "complete -c docsync -n '__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from \(names)' "
                    + "-a \(sub.name) -d '\(escapeSingle(sub.summary))'\n"
            }
        }
        for command in commands {
            for option in command.options {
                out += "complete -c docsync -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)"
                if let values = option.allowedValues { out += " -x -a '\(values.joined(separator: " "))'" } else if !option.isFlag { out += " -r" }
                out += " -d '\(escapeSingle(option.help))'\n"
            }
        }
        return out
    }

    private static func escapeSingle(_ text: String) -> String {
        text.replacing("'", with: "'\\''")
    }

    private static func escapeBrackets(_ text: String) -> String {
        text.replacing("[", with: "\\[").replacing("]", with: "\\]")
    }
}
