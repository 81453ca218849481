import DocModel
@testable import DocSyncCLI
import Testing

@Suite(.timeLimit(.minutes(3))) struct CommandLineParserTests {
    private func command<C: RunnableCommand>(_ arguments: [String], as type: C.Type) throws -> C {
        guard case .run(let command) = try CommandLineParser.parse(arguments) else {
            Issue.record("expected a command for \(arguments)")
            throw UsageError(.missingArgument("test"), commandPath: [])
        }
        return try #require(command as? C)
    }

    @Test func tokenizerClassifiesWords() {
        #expect(ArgumentToken.tokenize(["import", "--key=id", "--strict", "-hv", "-", "-5", "--", "--not-an-option"]) == [
            .value("import"), .longOption(name: "key", value: "id"), .longOption(name: "strict", value: nil),
            .shortOptions("hv"), .value("-"), .value("-5"), .value("--not-an-option"),
        ])
    }

    @Test func importParsesIntoATypedCommand() throws {
        let parsed = try command(["import", "Perfume", "records.ndjson", "--key", "meta.id", "--strict", "--store=x.sqlite"], as: ImportCommand.self)
        #expect(parsed.collection == (try CollectionPath("Perfume")))
        #expect(parsed.file == "records.ndjson")
        #expect(parsed.keyField == FieldPath(["meta", "id"]))
        #expect(parsed.isStrict)
        #expect(parsed.store == StoreLocation(storeOverride: "x.sqlite", configPath: nil))
        #expect(parsed.wait == .seconds(5))
    }

    @Test func optionsMayComeBeforeArgumentsAndDefaultsApply() throws {
        let parsed = try command(["import", "--key", "id", "Perfume", "-"], as: ImportCommand.self)
        #expect(parsed.file == "-")
        #expect(parsed.isStrict == false)
        #expect(parsed.store == StoreLocation(storeOverride: nil, configPath: nil), "the config's store, else ./docsync.sqlite")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try command(["get", "--store", "s.sqlite", "--", "Perfume", "--odd-id"], as: GetCommand.self)
        #expect(parsed.path.id == "--odd-id")
    }

    @Test func unknownOptionSuggestsTheClosestName() {
        #expect(throws: UsageError(.unknownOption("--strcit", suggestion: "--strict"), commandPath: ["docsync", "import"])) {
            try CommandLineParser.parse(["import", "Perfume", "f", "--key", "id", "--strcit"])
        }
        #expect(throws: UsageError(.unknownOption("--stor", suggestion: "--store"), commandPath: ["docsync", "count"])) {
            try CommandLineParser.parse(["count", "Perfume", "--stor", "x"])
        }
        #expect(throws: UsageError(.unknownOption("--verbose", suggestion: nil), commandPath: ["docsync", "count"])) {
            try CommandLineParser.parse(["count", "Perfume", "--verbose"])
        }
        #expect(throws: UsageError(.unknownOption("--verison", suggestion: "--version"), commandPath: ["docsync"])) {
            try CommandLineParser.parse(["--verison"])
        }
    }

    @Test func unknownSubcommandSuggestsTheClosestName() {
        #expect(throws: UsageError(.unknownSubcommand("exprot", suggestion: "export"), commandPath: ["docsync"])) {
            try CommandLineParser.parse(["exprot", "Perfume"])
        }
        #expect(throws: UsageError(.unknownSubcommand("frobnicate", suggestion: nil), commandPath: ["docsync"])) {
            try CommandLineParser.parse(["frobnicate"])
        }
    }

    @Test(arguments: [
        (["import", "Perfume", "f"], UsageError.Reason.missingOption("--key <field>")),
        (["import", "Perfume"], .missingArgument("<file>")),
        (["get", "Perfume", "a", "b"], .unexpectedArgument("b")),
        (["import", "Perfume", "f", "--key"], .missingValue(option: "--key <field>")),
        (["import", "Perfume", "f", "--key", "id", "--strict=yes"], .unexpectedValue(option: "--strict")),
        (["get", "Perfume", "a/b"], .invalidArgument("<id> 'a/b'", reason: "an id may not contain '/'")),
        (["count", "Perfume/doc"], .invalidArgument("<collection> 'Perfume/doc'",
                                                    reason: "a collection path has an odd number of segments (Collection or Collection/doc/Sub)")),
        (["import", "P", "f", "--key", "id", "--wait", "soon"],
         .invalidArgument("--wait 'soon'", reason: "expected a number of seconds, such as 0.5 or 30")),
    ])
    func malformedCommandLinesAreUsageErrors(arguments: [String], reason: UsageError.Reason) {
        #expect(throws: UsageError(reason, commandPath: ["docsync", arguments[0]])) {
            try CommandLineParser.parse(arguments)
        }
    }

    @Test func allowedValuesAreEnforced() throws {
        let spec = CommandSpec(
            name: "tool", summary: "Test.",
            subcommands: [CommandSpec(name: "show", summary: "Show.",
                                      options: [.value("format", valueName: "format", help: "Format.", defaultValue: "text", allowedValues: ["text", "json"])],
                                      command: CountCommand.self)])
        #expect(throws: UsageError(.invalidValue(option: "--format", value: "xml", allowed: ["text", "json"]), commandPath: ["tool", "show"])) {
            try CommandLineParser.parse(["show", "--format", "xml"], root: spec)
        }
    }

    @Test(arguments: [
        (["--help"], ["docsync"]), (["-h"], ["docsync"]), ([], ["docsync"]),
        (["import", "--help"], ["docsync", "import"]), (["import", "Perfume", "-h", "--bogus"], ["docsync", "import"]),
        (["help", "export"], ["docsync", "export"]), (["help"], ["docsync"]),
    ])
    func helpIsFoundAtEveryLevel(arguments: [String], path: [String]) throws {
        guard case .help(let commandPath) = try CommandLineParser.parse(arguments) else {
            Issue.record("expected help for \(arguments)")
            return
        }
        #expect(commandPath == path)
    }

    @Test func versionIsAnInvocation() throws {
        guard case .version = try CommandLineParser.parse(["--version"]) else {
            Issue.record("expected version")
            return
        }
    }

    @Test(arguments: [("strcit", "strict", 1), ("stor", "store", 1), ("", "abc", 3), ("kitten", "sitting", 3), ("same", "same", 0)])
    func editDistanceCountsTranspositionsAsOne(a: String, b: String, distance: Int) {
        #expect(Suggestion.editDistance(a, b) == distance)
    }
}
