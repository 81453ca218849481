import DocModel

/// Everything docsync needs to pull one source: where to ask, how to page,
/// where the records are, how to enrich and shape them, and how to key them.
///
/// Decoded from the source's JSON object in the config file (see
/// `docs/sources.md` and `schema/source.schema.json`) with
/// `SourceConfig.decode(_:at:)`, which names the path of any mistake.
public struct SourceConfig: Sendable {
    /// The source's name, used in messages.
    public var name: String
    /// Where the config sits in its file, e.g. `sources[0]` (for messages).
    public var configPath: String
    /// The API's base URL (`https://…`, `http://…` or `file://…`); nil for a file source.
    public var baseURL: String?
    /// Request headers, sent on list and detail requests; values may use `${ENV_VAR}`.
    public var headers: [HeaderTemplate]
    /// The list request; nil for a file source.
    public var list: ListRequest?
    /// A local JSON or NDJSON file to read instead of an API.
    public var file: FileInput?
    /// An optional request per record whose answer is merged into it.
    public var detail: DetailRequest?
    /// Shaping steps, applied in order to each record.
    public var shape: [ShapeStep]
    /// How each document's id is made.
    public var key: KeyRule
    /// Timeouts, retries, rate limit and concurrency.
    public var http: HTTPSettings
    /// Optional incremental pulls driven by a cursor field.
    public var incremental: IncrementalPull?

    /// The variables of `requiredEnvironment` that `environment` lacks or holds
    /// empty: the one rule for "set", used before a run and before a pull.
    public func missingEnvironment(in environment: [String: String]) -> [(name: String, path: String)] {
        requiredEnvironment.filter { (environment[$0.name] ?? "").isEmpty }
    }

    /// The environment variables the source needs, with the config path that names each.
    public var requiredEnvironment: [(name: String, path: String)] {
        var result: [(String, String)] = []
        let base = configPath
        for header in headers {
            for name in header.value.environmentVariables { result.append((name, ConfigReader.join(ConfigReader.join(base, "headers"), header.name))) }
        }
        if let baseURL, let template = try? Template(parsing: baseURL) {
            for name in template.environmentVariables { result.append((name, ConfigReader.join(base, "baseURL"))) }
        }
        func add(_ request: RequestTemplate, _ key: String) {
            let path = ConfigReader.join(base, key)
            for name in request.path.environmentVariables { result.append((name, ConfigReader.join(path, "path"))) }
            for item in request.query {
                for name in item.value.environmentVariables { result.append((name, ConfigReader.join(ConfigReader.join(path, "query"), item.name))) }
            }
        }
        if let list { add(list.request, "list") }
        if let detail { add(detail.request, "detail") }
        return result
    }
}
