import Firestore
import HTTP
import RESTSource

/// A failure that concerns a whole source or a whole push rather than one
/// record: the API or Firestore cannot be reached, authentication failed, the
/// configuration is wrong (a missing file source, an empty variable), or the
/// pull stopped for another reason (an unreadable page).
///
/// Reports show it once, with the number of documents it affected and what to
/// do, instead of one identical line per document; the CLI derives its exit
/// status from `kind` (unreachable and authentication: 75, the others: 1).
public struct RunWideFailure: Sendable, Equatable {
    /// What kind of problem stopped the work, as the exit status needs it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No answer, a timeout, or 429/5xx after the retries: running later may work.
        case unreachable
        /// Credentials missing or refused (401/403, UNAUTHENTICATED, PERMISSION_DENIED).
        case authentication
        /// The config points at something that is not there (a file, a variable).
        case configuration
        /// Anything else that stopped the pull (an unreadable page, an API error).
        case other

        /// True when running again later, unchanged, may succeed.
        public var isTemporary: Bool { self == .unreachable || self == .authentication }
    }

    public var kind: Kind
    /// `pull` or `push`.
    public var phase: RecordFailure.Phase
    /// The cause, without any document name (the same for every document affected).
    public var message: String
    /// Documents the failure left pending (push); 0 for a pull.
    public var affected: Int

    public init(kind: Kind, phase: RecordFailure.Phase, message: String, affected: Int = 0) {
        self.kind = kind
        self.phase = phase
        self.message = message
        self.affected = affected
    }

    /// One sentence on what to do about it.
    public var hint: String {
        switch (kind, phase) {
        case (.unreachable, .push):
            "Firestore could not be reached; the documents stay pending: check the network (or FIRESTORE_EMULATOR_HOST), then run 'docsync push'"
        case (.unreachable, _):
            "the API could not be reached or kept failing; nothing was deleted: check the base URL and the network, then run again"
        case (.authentication, .push):
            "check the credentials (target.credentials, GOOGLE_APPLICATION_CREDENTIALS, or 'gcloud auth login'), then run 'docsync push'; the documents stay pending"
        case (.authentication, _):
            "check the API key or token the source sends (its headers), then run again"
        case (.configuration, _):
            "fix the config (or the environment variable or file it names), then run again"
        case (.other, .push):
            "the documents stay pending; run 'docsync push' again once the cause is fixed"
        case (.other, _):
            "nothing of this source was stored or deleted; check the API's answer (--verbose logs each request), then run again"
        }
    }

    /// The kind of a pull failure.
    public static func kind(ofPullError error: any Error) -> Kind {
        switch error {
        case let error as SourceError:
            switch error {
            case .transport(_, let message, _):
                // A certificate that fails verification does not fix itself by waiting.
                let lowered = message.lowercased()
                return lowered.contains("certificate") ? .other : .unreachable
            case .timeout: return .unreachable
            case .badStatus(let status, _, _, _):
                if status == 401 || status == 403 { return .authentication }
                return status == 429 || status >= 500 ? .unreachable : .other
            case .missingEnvironment, .file: return .configuration
            default: return .other
            }
        case let error as FirestoreError:
            return kind(ofPushError: error) ?? .other
        case let error as HTTPError:
            // Thrown as is by Swift sources that send through docsync's HTTP client.
            switch error {
            case .timedOut, .cannotFindHost, .cannotConnect, .connectionLost, .unavailable: return .unreachable
            default: return .other
            }
        default:
            return .other
        }
    }

    /// The kind of a failed write when the cause is not the document itself (the
    /// same for every write), nil when it concerns that one document.
    public static func kind(ofPushError error: FirestoreError) -> Kind? {
        switch error {
        case .network: return .unreachable
        case .authentication: return .authentication
        case .server(let status, _, _):
            if status == .unauthenticated || status == .permissionDenied { return .authentication }
            return status.isRetryable ? .unreachable : nil
        default: return nil
        }
    }

    /// `error`'s text without the document it was reported for.
    static func messageWithoutDocument(_ error: FirestoreError) -> String {
        if case .server(let status, let message, _) = error {
            return FirestoreError.server(status: status, message: message, document: nil).description
        }
        return error.description
    }
}
