import DocModel
import DocStore
import FoundationEssentials

/// `docsync import COLLECTION FILE --key FIELD [--strict]`: loads records into the store.
struct ImportCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "import",
        summary: "Import NDJSON or a JSON array of records into a collection.",
        discussion: """
            The format is detected from the first character: '[' starts a JSON array, \
            anything else is NDJSON (one record per line). Each record must be a JSON object; \
            its key field becomes the document id and the whole record, key included, the document. \
            A record that is not valid JSON or lacks its key is reported with its line number and \
            skipped; the others are imported, in transactions of 1,000 records. \
            A summary 'imported N, failed M' goes to standard error.
            """,
        arguments: [
            ArgumentSpec(name: "collection", help: "The collection to import into, such as Perfume."),
            ArgumentSpec(name: "file", help: "The NDJSON or JSON array file; '-' reads standard input."),
        ],
        options: [
            .value("key", valueName: "field",
                   help: "The record field holding the document id (a string or an integer; a field path such as meta.id works too).",
                   isRequired: true),
            .flag("strict", help: "Import nothing when any record fails."),
            .storeConfig, .storeOverride,
            .wait,
        ],
        command: ImportCommand.self
    )

    var collection: CollectionPath
    var file: String
    var keyField: FieldPath
    var isStrict: Bool
    var store: StoreLocation
    var wait: Duration
    /// Records per transaction.
    var batchSize = 1000

    /// How many failures are printed one by one before only counting.
    static let reportedFailureLimit = 20

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = try arguments.collectionPath("collection")
        file = try arguments.requiredArgument("file")
        let key = arguments.value("key") ?? ""
        do {
            keyField = try FieldPath(parsing: key)
        } catch {
            throw arguments.error(.invalidArgument("--key '\(key)'", reason: error.reason))
        }
        isStrict = arguments.flag("strict")
        store = StoreLocation(arguments)
        wait = try arguments.waitDuration
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let sourceName = file == "-" ? "stdin" : file
        var spool: URL?
        defer { if let spool { try? FileManager.default.removeItem(at: spool) } }
        // --strict reads the input twice (check, then import); standard input is kept in a
        // temporary file for the second pass.
        if isStrict, file == "-" {
            spool = try Self.spool(environment.stdin)
        }
        let openSource = { () throws -> ByteSource in
            if let spool { return try Self.open(spool.path, shownAs: sourceName) }
            return file == "-" ? environment.stdin : try Self.open(environment.resolve(file), shownAs: file)
        }
        let firstSource = try openSource()

        let store = try await self.store.open(in: environment, createIfMissing: true, busyTimeout: wait, verify: true)
        let importer = RecordImporter(collection: collection, keyField: keyField, batchSize: batchSize)
        var printed = 0
        let report = { (failure: ImportFailure) in
            printed += 1
            if printed <= Self.reportedFailureLimit {
                environment.stderr.writeLine("error: \(sourceName): \(failure)")
            }
        }

        let summary: ImportSummary
        if isStrict {
            let check = try await importer.run(firstSource, into: nil, onFailure: report)
            if check.failed > 0 {
                reportOmitted(printed, to: environment)
                environment.stderr.writeLine("imported 0, failed \(check.failed)")
                UserFacingError(
                    message: "nothing was imported: --strict is set and \(check.failed) record\(check.failed == 1 ? "" : "s") failed",
                    hint: "fix the records above, or import without --strict to skip them"
                ).write(to: environment.stderr)
                return .failure
            }
            summary = try await importer.run(try openSource(), into: store, onFailure: report)
        } else {
            summary = try await importer.run(firstSource, into: store, onFailure: report)
        }
        reportOmitted(printed, to: environment)
        environment.stderr.writeLine("imported \(summary.imported), failed \(summary.failed)")
        if summary.failed == 0 { return .success }
        return summary.imported > 0 ? .partialFailure : .failure
    }

    private func reportOmitted(_ printed: Int, to environment: Environment) {
        if printed > Self.reportedFailureLimit {
            environment.stderr.writeLine("error: … and \(printed - Self.reportedFailureLimit) more failed records (not shown)")
        }
    }

    /// Opens a file for reading, with a message naming it when that fails.
    static func open(_ path: String, shownAs name: String) throws -> ByteSource {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UserFacingError(message: "cannot read \(name): no such file")
        }
        if isDirectory { throw UserFacingError(message: "cannot read \(name): it is a directory") }
        do {
            return .file(try OpenFile(reading: path))
        } catch {
            throw UserFacingError(message: "cannot read \(name): \(error.code == SystemError.permissionDenied ? "permission denied" : error.description)")
        }
    }

    /// Copies `source` to a temporary file, chunk by chunk.
    static func spool(_ source: ByteSource) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-import-\(UUID().uuidString).json")
        let file: OpenFile
        do { file = try OpenFile(creating: url.path) } catch {
            throw UserFacingError(message: "cannot create a temporary file in \(FileManager.default.temporaryDirectory.path): \(error)")
        }
        while true {
            let chunk = try source.read(1 << 16)
            if chunk.isEmpty { break }
            try file.write(chunk)
        }
        return url
    }
}
