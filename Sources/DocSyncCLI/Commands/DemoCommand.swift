import FoundationEssentials

/// `docsync demo`: the whole product on bundled data, with no network.
///
/// The demo itself (sample API on loopback, emulator launcher) ships in the
/// `docsync-demo` executable, not in `docsync` (STYLE R25). This command parses
/// and documents the demo's options, then runs the demo through the one seam:
/// the environment's `DemoRunner` when the demo is linked in (`docsync-demo`),
/// else the `docsync-demo` executable next to this one or on PATH.
struct DemoCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "demo",
        summary: "Sync the bundled sample API into a local store and the Firestore emulator, twice.",
        discussion: """
            Needs no network and no config. Uses FIRESTORE_EMULATOR_HOST when set, else starts the \
            emulator when gcloud is installed, else plans the push without sending it. The demo is \
            the docsync-demo executable, found next to docsync or on PATH \
            (swift build --product docsync-demo).
            """,
        options: [
            .value("store", valueName: "path", help: "Keep the demo store here (default: a new temporary folder)."),
            .flag("no-emulator", help: "Do not push; show the plans only."),
            .quiet, .noColor,
        ],
        command: DemoCommand.self
    )

    var storePath: String?
    var noEmulator: Bool
    var output: OutputOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        storePath = arguments.value("store")
        noEmulator = arguments.flag("no-emulator")
        output = OutputOptions(arguments)
    }

    /// The arguments after `demo` that ask for this run, for `docsync-demo`.
    var arguments: [String] {
        (storePath.map { ["--store", $0] } ?? []) + (noEmulator ? ["--no-emulator"] : [])
            + (output.isQuiet ? ["--quiet"] : []) + (output.noColor ? ["--no-color"] : [])
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        if let demo = environment.demo {
            let console = Console(environment: environment, output: output)
            let request = DemoRequest(
                storePath: storePath.map(environment.resolve), pushes: !noEmulator, isQuiet: output.isQuiet,
                useColor: console.useColor, environment: environment,
                progress: console.progressReporter(), finishProgress: { console.finishProgress() })
            return try await demo.run(request)
        }
        guard let executable = DemoExecutable.locate(besides: DemoExecutable.runningExecutableDirectory,
                                                     searchPath: environment.variables["PATH"] ?? "") else {
            throw UserFacingError(message: "the demo is not installed: no \(DemoExecutable.name) next to docsync or on PATH",
                                  hint: DemoExecutable.notFoundHint)
        }
        return try await DemoExecutable.run(executable, arguments: arguments, environment: environment)
    }
}
