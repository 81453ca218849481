/// A `google.rpc.Code`: how Firestore classifies an error.
///
/// Firestore's error bodies carry the name (`"status": "UNAVAILABLE"`), batchWrite's
/// per-write statuses carry the number (`"code": 14`); both map to this type.
/// Several statuses share an HTTP code (400 is INVALID_ARGUMENT, FAILED_PRECONDITION
/// or OUT_OF_RANGE), so docsync classifies by status, never by HTTP code alone.
public enum FirestoreStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16

    /// The canonical name, as in Firestore's error JSON (`FAILED_PRECONDITION`).
    public var name: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }

    public var description: String { name }

    /// The status with this canonical name, or nil for an unknown name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The status for a numeric code; unknown numbers become `.unknown`.
    public init(code: Int) {
        self = FirestoreStatus(rawValue: code) ?? .unknown
    }

    /// The status an HTTP code stands for when a response carries no JSON error
    /// (a proxy's HTML page, the emulator's empty 413): the rpc mapping of
    /// `google/rpc/code.proto`, read backwards.
    public init(httpStatus: Int) {
        switch httpStatus {
        case 200..<300: self = .ok
        case 400: self = .invalidArgument
        case 401: self = .unauthenticated
        case 403: self = .permissionDenied
        case 404: self = .notFound
        case 409: self = .aborted
        case 413: self = .resourceExhausted
        case 429: self = .resourceExhausted
        case 499: self = .cancelled
        case 501: self = .unimplemented
        case 503: self = .unavailable
        case 504: self = .deadlineExceeded
        case 500..<600: self = .internal
        default: self = .unknown
        }
    }

    /// True for the statuses Firestore's own clients retry: UNAVAILABLE,
    /// RESOURCE_EXHAUSTED, ABORTED, DEADLINE_EXCEEDED and INTERNAL.
    ///
    /// INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION and
    /// PERMISSION_DENIED are never retried: sending the same request again
    /// cannot change the answer.
    public var isRetryable: Bool {
        switch self {
        case .unavailable, .resourceExhausted, .aborted, .deadlineExceeded, .internal: true
        default: false
        }
    }
}
