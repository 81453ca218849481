import DocModel
import DocStore
import DocSync
import Firestore
import RESTSource

/// What the user reads when a command fails: an `error:` line, an optional
/// `hint:` line, and the exit status. Libraries describe their errors; this is
/// the one place that decides how each is shown.
struct UserFacingError: Error, Equatable {
    var message: String
    var hint: String?
    var status: ExitStatus

    init(message: String, hint: String? = nil, status: ExitStatus = .failure) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    /// Maps any error thrown by a command.
    init(_ error: any Error) {
        switch error {
        case let error as UserFacingError:
            self = error
        case let error as DocStoreError:
            switch error {
            case .storeBusy, .storeInUse:
                self.init(message: error.description, hint: Self.hint(for: error), status: .temporaryFailure)
            default:
                self.init(message: error.description, hint: Self.hint(for: error))
            }
        case let error as SourceError:
            let kind = RunWideFailure.kind(ofPullError: error)
            self.init(message: error.description, hint: RunWideFailure(kind: kind, phase: .pull, message: "").hint,
                      status: kind.isTemporary ? .temporaryFailure : .failure)
        case let error as ConfigError:
            let unreadable = error.path.isEmpty && error.message.hasPrefix("cannot read config file")
            self.init(message: "config: \(error)",
                      hint: unreadable ? "create one with 'docsync init', or pass --config with its path" : "see README, section Configuration")
        case let error as FirestoreError:
            // Unreachable or refused credentials: running again later (or after a login) may work.
            if let kind = RunWideFailure.kind(ofPushError: error) {
                self.init(message: error.description, hint: RunWideFailure(kind: kind, phase: .push, message: "").hint,
                          status: .temporaryFailure)
            } else {
                self.init(message: error.description, status: error.isRetryable ? .temporaryFailure : .failure)
            }
        case let error as SyncError:
            self.init(message: error.description, hint: Self.hint(for: error))
        case let error as DocumentPathError:
            self.init(message: error.description)
        case is CancellationError:
            self.init(message: "interrupted before the command finished",
                      hint: "run it again; a sync or push left 'running' is marked interrupted by the next one")
        default:
            self.init(message: "\(error)")
        }
    }

    /// What to do about a store problem, in the CLI's words (the library only describes it).
    static func hint(for error: DocStoreError) -> String? {
        switch error {
        case .storeBusy: "wait for the other docsync process to finish, then run the command again"
        case .storeInUse: "wait for it to finish, or pass --wait SECONDS to wait for it"
        case .notAStore: "pass --store with the path of a docsync store, or a new path to create one"
        case .damagedStore: "restore it from a backup, or move it aside and sync again into a new store (every document is then pushed again)"
        case .storeNotFound: "check the --store path, or create the store with 'docsync import'"
        case .cannotOpen: "check that the directory exists and is writable"
        case .editedMigration(let name, _): "restore migrations/\(name).sql as it was shipped and put the change in a new migration"
        case .newerStore: "use the docsync version that created this store, or a later one"
        case .corruptDocument: "re-import the document, or delete the row"
        default: nil
        }
    }

    /// What to do about a problem that stops a run, in the CLI's words.
    static func hint(for error: SyncError) -> String? {
        switch error {
        case .noTarget: "set \"target\" in the config, pass --project, or set FIRESTORE_EMULATOR_HOST"
        case .conflict: "look at the remote document, then run again with --conflicts overwrite or skip"
        case .unknownSource, .missingEnvironment: nil
        }
    }

    /// Prints the `error:` and `hint:` lines.
    func write(to sink: OutputSink) {
        sink.writeLine("error: \(message)")
        if let hint { sink.writeLine("hint: \(hint)") }
    }

    /// Prints `error` as a user reads it and returns the status it maps to.
    static func report(_ error: any Error, to sink: OutputSink) -> ExitStatus {
        let userError = UserFacingError(error)
        userError.write(to: sink)
        return userError.status
    }
}
