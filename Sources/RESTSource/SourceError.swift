/// Why a pull could not run or could not complete.
///
/// When a pull stream throws one of these, the pull is incomplete and the
/// engine must not delete anything on its account. Messages never contain
/// secret values: URLs and excerpts are redacted.
public enum SourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An environment variable the config refers to is not set (checked before any request).
    case missingEnvironment(variable: String, source: String, configPath: String)
    /// The server answered with an error status (after retries where they apply).
    case badStatus(status: Int, url: String, bodyExcerpt: String, attempts: Int)
    /// No answer: connection refused, reset, DNS… (after retries).
    case transport(url: String, message: String, attempts: Int)
    /// No answer in time (after retries).
    case timeout(url: String, seconds: Double, attempts: Int)
    /// The body is not what the config expects (invalid JSON, records not found…).
    case malformedResponse(url: String, reason: String)
    /// The API reported an error inside a successful HTTP answer.
    case apiError(url: String, code: String?, message: String?)
    /// The page cap was reached before a stop condition.
    case pageLimit(maxPages: Int, url: String)
    /// A local file could not be read.
    case file(path: String, reason: String)
    /// A request URL could not be formed from the templates.
    case invalidURL(url: String, reason: String)

    public var description: String {
        switch self {
        case .missingEnvironment(let variable, let source, let configPath):
            return "source \"\(source)\": environment variable \(variable) is not set (used at \(configPath)); set it before running"
        case .badStatus(let status, let url, let excerpt, let attempts):
            var text = "HTTP \(status) from \(url)"
            if attempts > 1 { text += " after \(attempts) attempts" }
            if !excerpt.isEmpty { text += ": \(excerpt)" }
            return text
        case .transport(let url, let message, let attempts):
            return "request to \(url) failed\(attempts > 1 ? " after \(attempts) attempts" : ""): \(message)"
        case .timeout(let url, let seconds, let attempts):
            return "no answer from \(url) within \(Self.format(seconds)) s\(attempts > 1 ? " (\(attempts) attempts)" : ""); raise http.timeoutSeconds if the API is slow"
        case .malformedResponse(let url, let reason):
            return "unexpected response from \(url): \(reason)"
        case .apiError(let url, let code, let message):
            var text = "the API reported an error"
            if let code { text += " (code \(code))" }
            if let message, !message.isEmpty { text += ": \(message)" }
            return text + " [\(url)]"
        case .pageLimit(let maxPages, let url):
            return "stopped after \(maxPages) pages without reaching a stop condition (last page \(url)); raise list.paginate.maxPages if the API really has more, or check the stop condition"
        case .file(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .invalidURL(let url, let reason):
            return "cannot build a request URL \"\(url)\": \(reason)"
        }
    }

    /// Whether running again later may succeed (network trouble, 429, 5xx).
    public var isTemporary: Bool {
        switch self {
        case .transport, .timeout: return true
        case .badStatus(let status, _, _, _): return status == 429 || status >= 500
        default: return false
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}
