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

/// One request header; the value may use `${ENV_VAR}`.
public struct HeaderTemplate: Sendable, Hashable {
    public var name: String
    public var value: Template
}

/// One query parameter; the value is a template.
public struct QueryTemplate: Sendable, Hashable {
    public var name: String
    public var value: Template
}

/// A request's method, path template and query templates.
public struct RequestTemplate: Sendable, Hashable {
    public var method: String
    /// Appended to the base URL; may also be an absolute URL.
    public var path: Template
    public var query: [QueryTemplate]
}

/// How a response body is read.
public enum BodyFormat: String, Sendable {
    /// One JSON document.
    case json
    /// Newline-delimited JSON: each non-empty line is one record.
    case ndjson
}

/// The list request and what to do with its pages.
public struct ListRequest: Sendable {
    public var request: RequestTemplate
    public var paginate: Pagination
    public var records: RecordSelection
    public var success: SuccessCheck?
    public var format: BodyFormat
}

/// A local file read in place of an API (offline use, tests).
public struct FileInput: Sendable {
    /// The file's path; relative paths resolve against the working directory.
    public var path: String
    public var format: BodyFormat
    /// Where the records are in a JSON file (ignored for NDJSON).
    public var records: RecordSelection
}

/// How list pages follow each other and when to stop.
public struct Pagination: Sendable {
    /// The paging scheme.
    public enum Kind: String, Sendable, CaseIterable {
        /// A single request.
        case none
        /// `{page}` counts up from `first`; `{pageSize}` is `size`.
        case page
        /// 1-based inclusive ranges: `{start}`…`{end}`, `size` records each.
        case range
        /// `{offset}` counts up by `{limit}` (= `size`) from `first`.
        case offset
        /// `{cursor}` (or the `param` query parameter) carries the value found at `next`.
        case cursor
        /// The next page's URL is in the body (`next`) or in a `Link: <…>; rel="next"` header.
        case nextLink
    }

    public var kind: Kind
    /// First page number (page, default 1), first index (range, default 1; offset, default 0).
    public var first: Int
    /// Page size, range length or limit.
    public var size: Int?
    /// Body field holding the number of pages.
    public var totalPages: FieldPath?
    /// Body field holding the number of records (numbers or numeric strings).
    public var totalItems: FieldPath?
    /// Body field that is `true` on the last page (such as `meta.is_end`).
    public var isEnd: FieldPath?
    /// Cursor: body field with the next cursor. NextLink: body field with the next URL (nil: `Link` header).
    public var next: FieldPath?
    /// Cursor: query parameter that carries the cursor when no template uses `{cursor}`.
    public var cursorParam: String?
    /// Stop when a page has fewer records than `size`.
    public var stopOnShortPage: Bool
    /// Stop when a page has no records (default true).
    public var stopOnEmptyPage: Bool
    /// Safety cap; reaching it fails the pull.
    public var maxPages: Int

    /// A single request, no paging.
    public static let none = Pagination(kind: .none, first: 1, size: nil, totalPages: nil, totalItems: nil, isEnd: nil,
                                        next: nil, cursorParam: nil, stopOnShortPage: false, stopOnEmptyPage: true, maxPages: 1)

    /// The `{…}` names list templates may use with this scheme.
    var templateVariables: Set<String> {
        switch kind {
        case .none, .nextLink: []
        case .page: ["page", "pageSize"]
        case .range: ["start", "end", "size"]
        case .offset: ["offset", "limit"]
        case .cursor: ["cursor"]
        }
    }
}

/// Where the records of a response body are.
public enum RecordSelection: Sendable {
    /// An array at a path (nil: the body itself); `ifMissing` decides when the path is absent.
    case array(at: FieldPath?, ifMissing: MissingRecords, nonObjects: NonObjectPolicy)
    /// An object at a path whose members are records; each member's name is stored in `keyField`.
    case map(at: FieldPath?, keyField: FieldPath, nonObjects: NonObjectPolicy)

    /// What to do when the records path is absent from a page.
    public enum MissingRecords: String, Sendable { case error, empty }
}

/// What to do with entries that are not JSON objects (like a ticker map's `"date"`).
public enum NonObjectPolicy: String, Sendable {
    /// Skip and count them in `PullSummary.skipped`.
    case skip
    /// Report each as a failed record.
    case fail
}

/// A check for APIs that report errors inside an HTTP 200 body.
public struct SuccessCheck: Sendable {
    /// Fields holding the status code; the first one present is used.
    public var fields: [FieldPath]
    /// Codes meaning success (compared as text: `0` and `"0"` match).
    public var accepted: [String]
    /// Codes meaning "no records" (an empty page, not an error).
    public var noData: [String]
    /// Fields holding the API's message; the first one present is used.
    public var messages: [FieldPath]
}

/// The per-record detail request and how its answer is merged.
public struct DetailRequest: Sendable {
    public var request: RequestTemplate
    /// Where the detail object is in the body (nil: the body).
    public var record: FieldPath?
    /// Fields to take from the detail (nil: all).
    public var fields: [FieldPath]?
    /// Renames applied to the taken fields.
    public var rename: [FieldRename]
    /// Nest the taken fields under this field instead of merging at the top.
    public var into: FieldPath?
    /// A 404 drops the record (counted as skipped) instead of failing it.
    public var dropOnNotFound: Bool
    public var success: SuccessCheck?
}

/// A field moved from one path to another.
public struct FieldRename: Sendable, Hashable {
    public var from: FieldPath
    public var to: FieldPath

    public init(from: FieldPath, to: FieldPath) {
        self.from = from
        self.to = to
    }
}

/// The document id rule.
public enum KeyRule: Sendable {
    /// The value of a field (strings as they are, integers in decimal).
    case field(FieldPath)
    /// A template of fields, such as `{symbol}-KRW`.
    case template(Template)
    /// A stable hash of fields: the first 32 hex digits of SHA-256 over the
    /// canonical JSON of an object holding those fields under their path text
    /// (absent fields as null). For APIs without ids.
    case hash([FieldPath])
}

/// HTTP behaviour for one source.
public struct HTTPSettings: Sendable {
    /// Time allowed for one attempt, in seconds.
    public var timeout: Double = 30
    /// Retries after the first attempt on 429, 5xx, timeouts and network errors.
    public var retries: Int = 3
    /// First backoff delay in seconds; doubles each retry, with jitter.
    public var backoff: Double = 0.5
    /// Longest backoff delay in seconds.
    public var maxBackoff: Double = 30
    /// Longest `Retry-After` honoured, in seconds (longer values are capped).
    public var maxRetryAfter: Double = 120
    /// Requests per second across the source (nil: unlimited).
    public var requestsPerSecond: Double?
    /// Detail requests in flight at once.
    public var concurrency: Int = 4

    public init() {}
}

/// Incremental pulls: only records changed since the last run.
public struct IncrementalPull: Sendable {
    /// Field whose highest value becomes the next run's cursor.
    public var field: FieldPath
    /// Query parameter that carries the cursor (unless templates use `{since}`).
    public var param: String?
    /// Cursor for the first run.
    public var initial: String?
    /// Subtracted from the cursor before it is sent: seconds for timestamps, units for numbers.
    public var lag: Double?
}
