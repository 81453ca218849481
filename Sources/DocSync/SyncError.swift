/// Problems that stop a whole run (per-record problems go into the report instead).
public enum SyncError: Error, Sendable, CustomStringConvertible {
    case unknownSource(String, known: [String])
    case noTarget
    case conflict(path: String)
    /// Environment variables the config refers to (`${NAME}`) that are not set.
    case missingEnvironment([(name: String, path: String)])

    public var description: String {
        switch self {
        case .unknownSource(let name, let known):
            "no source named \"\(name)\" in the config; known sources: \(known.joined(separator: ", "))"
        case .noTarget:
            "no Firestore target is configured"
        case .missingEnvironment(let missing):
            "the config needs environment variable\(missing.count == 1 ? "" : "s") "
                + missing.map { "\($0.name) (at \($0.path))" }.joined(separator: ", ")
                + " but \(missing.count == 1 ? "it is" : "they are") not set or empty; export \(missing.count == 1 ? "it" : "them") and run again. Nothing was requested"
        case .conflict(let path):
            "\(path) changed in Firestore since docsync last pushed it, and the conflict policy is \"fail\""
        }
    }
}
