/// What the command line asks for, once parsed.
enum Invocation: Sendable {
    /// Run a command.
    case run(any RunnableCommand)
    /// Print the help of the command at this path (`["docsync", "import"]`).
    case help(commandPath: [String])
    /// Print the version.
    case version
}
