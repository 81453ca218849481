/// Problems that stop a whole run (per-record problems go into the report instead).
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownSource(String, known: [String])
    case noTarget
    case conflict(path: String)

    public var description: String {
        switch self {
        case .unknownSource(let name, let known):
            "no source named \"\(name)\" in the config; known sources: \(known.joined(separator: ", "))"
        case .noTarget:
            "no Firestore target is configured; set \"target\" in the config, pass --project, or set FIRESTORE_EMULATOR_HOST"
        case .conflict(let path):
            "\(path) changed in Firestore since docsync last pushed it, and the conflict policy is \"fail\"; "
                + "look at the remote document, then run again with --conflicts overwrite or skip"
        }
    }
}
