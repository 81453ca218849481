/// The top of the command tree: every subcommand docsync knows.
enum RootCommand {
    static let spec = CommandSpec(
        name: "docsync",
        summary: "Keep a Firestore collection in step with a REST API, through a local SQLite document store.",
        subcommands: [
            DemoCommand.spec,
            InitCommand.spec,
            SyncCommand.spec,
            SyncCommand.diffSpec,
            PushCommand.spec,
            VerifyCommand.spec,
            GetCommand.spec,
            ImportCommand.spec,
            ExportCommand.spec,
            CountCommand.spec,
            QueryCommand.spec,
            IndexCommand.spec,
            StatusCommand.spec,
            CompletionsCommand.spec,
        ]
    )
}
