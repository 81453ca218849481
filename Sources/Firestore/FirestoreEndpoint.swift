import DocModel
import FoundationEssentials

/// Where requests go: the real service or a local emulator.
public enum FirestoreEndpoint: Sendable, Hashable {
    /// `https://firestore.googleapis.com`.
    case production
    /// A Firestore emulator at `host:port` (`127.0.0.1:8080`), spoken to over plain HTTP.
    case emulator(host: String)

    /// The emulator named by `FIRESTORE_EMULATOR_HOST` (as the official SDKs read it),
    /// otherwise production.
    public static func fromEnvironment(_ environment: [String: String]) -> FirestoreEndpoint {
        if let host = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingWhitespace(), !host.isEmpty {
            return .emulator(host: host)
        }
        return .production
    }

    /// The scheme, host and port, without a trailing slash.
    public var baseURL: String {
        switch self {
        case .production: "https://firestore.googleapis.com"
        case .emulator(let host): host.hasPrefix("http://") || host.hasPrefix("https://") ? host : "http://" + host
        }
    }

    /// True for `.emulator`.
    public var isEmulator: Bool {
        if case .emulator = self { return true }
        return false
    }
}
