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
                self.init(message: error.description, hint: error.hint, status: .temporaryFailure)
            default:
                self.init(message: error.description, hint: error.hint)
            }
        case let error as SourceError:
            let kind = RunWideFailure.kind(ofPullError: error)
            self.init(message: error.description, hint: RunWideFailure(kind: kind, phase: .pull, message: "").hint,
                      status: kind.isTemporary ? .temporaryFailure : .failure)
        case let error as ConfigError:
            self.init(message: "config: \(error)", hint: "see README, section Configuration")
        case let error as FirestoreError:
            // Unreachable or refused credentials: running again later (or after a login) may work.
            if let kind = RunWideFailure.kind(ofPushError: error) {
                self.init(message: error.description, hint: RunWideFailure(kind: kind, phase: .push, message: "").hint,
                          status: .temporaryFailure)
            } else {
                self.init(message: error.description, status: error.isRetryable ? .temporaryFailure : .failure)
            }
        case let error as SyncError:
            self.init(message: error.description)
        case let error as DocumentPathError:
            self.init(message: error.description)
        case is CancellationError:
            self.init(message: "interrupted before the command finished",
                      hint: "run it again; a sync or push left 'running' is marked interrupted by the next one")
        default:
            self.init(message: "\(error)")
        }
    }

    /// Prints the `error:` and `hint:` lines.
    func write(to sink: OutputSink) {
        sink.writeLine("error: \(message)")
        if let hint { sink.writeLine("hint: \(hint)") }
    }
}
