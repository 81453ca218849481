/// Everything that can go wrong talking to Firestore.
///
/// Messages name the document (`Perfume/P501198`) and field where one is known,
/// and never contain access tokens, keys or document bodies.
public enum FirestoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A document breaks a Firestore rule; found before anything was sent.
    /// `document` is the relative path (`Perfume/P1`), `field` the field path if one is to blame.
    case invalidDocument(document: String, field: String?, reason: String)
    /// A value Firestore cannot hold (a malformed timestamp, an out-of-range geopoint),
    /// outside any document.
    case invalidValue(String)
    /// Firestore refused the request or one write (`message` is Firestore's own).
    case server(status: FirestoreStatus, message: String, document: String?)
    /// No answer arrived: connection refused, timeout, TLS failure.
    case network(String)
    /// Firestore answered with something docsync cannot read.
    case unexpectedResponse(String)
    /// No access token could be obtained from the credentials.
    case authentication(String)
    /// The call itself was malformed (for example a query that is not a JSON object).
    case invalidRequest(String)
    /// The task was cancelled before the request finished.
    case cancelled

    /// The rpc status this error stands for (`nil` for errors raised before sending).
    public var status: FirestoreStatus? {
        switch self {
        case .server(let status, _, _): status
        case .network: .unavailable
        case .cancelled: .cancelled
        default: nil
        }
    }

    /// True when sending the same request again may succeed (see `FirestoreStatus.isRetryable`).
    public var isRetryable: Bool {
        switch self {
        case .network: true
        case .server(let status, _, _): status.isRetryable
        default: false
        }
    }

    public var description: String {
        switch self {
        case .invalidDocument(let document, let field, let reason):
            if let field { return "document \(document), field \(field): \(reason)" }
            return "document \(document): \(reason)"
        case .invalidValue(let reason):
            return reason
        case .server(let status, let message, let document):
            let prefix = document.map { "document \($0): " } ?? ""
            return "\(prefix)Firestore answered \(status.name): \(message)"
        case .network(let message):
            return "could not reach Firestore: \(message); check the network, or FIRESTORE_EMULATOR_HOST for the emulator"
        case .unexpectedResponse(let message):
            return "unexpected answer from Firestore: \(message)"
        case .authentication(let message):
            return "cannot authenticate to Firestore: \(message)"
        case .invalidRequest(let message):
            return "invalid Firestore request: \(message)"
        case .cancelled:
            return "cancelled before Firestore answered"
        }
    }

    /// The same error with the document it concerns filled in.
    func naming(_ document: String) -> FirestoreError {
        if case .server(let status, let message, nil) = self {
            return .server(status: status, message: message, document: document)
        }
        return self
    }
}
