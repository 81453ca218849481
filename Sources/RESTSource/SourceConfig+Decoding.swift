import DocModel

extension SourceConfig {
    /// Decodes one source object.
    ///
    /// Unknown keys, wrong types, unknown step or paging names and placeholders
    /// that cannot be filled are all errors naming their path in the file.
    ///
    /// ```swift
    /// let config = try SourceConfig.decode(json["sources"]![0], at: "sources[0]")
    /// ```
    /// - Throws: `ConfigError`, e.g. `sources[0].list.paginate: unknown type "pages";
    ///   expected one of page, range, offset, cursor, nextLink`.
    public static func decode(_ value: JSONValue, at path: String) throws(ConfigError) -> SourceConfig {
        let object = try ConfigReader(value, at: path).object()
        let name = try object.required("name").nonEmptyString()

        var headers: [HeaderTemplate] = []
        if let reader = object.optional("headers") {
            for (key, value) in try reader.entries() {
                guard !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                    throw ConfigError(path: value.path, message: "\"\(key)\" is not a valid header name")
                }
                headers.append(HeaderTemplate(name: key, value: try decodeTemplate(value, allowed: [], what: "header value")))
            }
        }

        let http = try decodeHTTP(object.optional("http"))
        let incremental = try decodeIncremental(object.optional("incremental"))

        var baseURL: String?
        var list: ListRequest?
        var file: FileInput?
        if let fileReader = object.optional("file") {
            if object.has("baseURL") || object.has("list") {
                throw object.error("has \"file\" and \"baseURL\"/\"list\"; a source reads either a local file or an API")
            }
            file = try decodeFile(fileReader)
            if object.has("detail") {
                throw ConfigError(path: ConfigReader.join(path, "detail"), message: "a file source cannot have a detail request")
            }
        } else {
            let urlReader = try object.required("baseURL")
            let url = try urlReader.nonEmptyString()
            let lowered = url.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") else {
                throw urlReader.error("must start with http://, https:// or file://, found \"\(url)\"")
            }
            _ = try decodeTemplate(urlReader, allowed: [], what: "base URL")
            baseURL = url
            list = try decodeList(try object.required("list"), incremental: incremental)
        }

        let detail = try object.optional("detail").map { reader throws(ConfigError) in try decodeDetail(reader) }

        var shape: [ShapeStep] = []
        if let reader = object.optional("shape") {
            for step in try reader.array() { shape.append(try decodeStep(step)) }
        }
        let key = try decodeKey(try object.required("key"))
        try object.finish()
        return SourceConfig(name: name, configPath: path, baseURL: baseURL, headers: headers, list: list, file: file,
                            detail: detail, shape: shape, key: key, http: http, incremental: incremental)
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    /// Parses a template and checks its `{…}` placeholders: `allowed` names, or
    /// any field path when `allowed` is nil.
    static func decodeTemplate(_ reader: ConfigReader, allowed: Set<String>?, what: String,
                               allowEnvironment: Bool = true) throws(ConfigError) -> Template {
        let text = try reader.string()
        let template: Template
        do { template = try Template(parsing: text) } catch { throw reader.error(error.message) }
        if !allowEnvironment, let name = template.environmentVariables.first {
            throw reader.error("${\(name)} is not allowed in a \(what): environment values are secrets and never go into documents")
        }
        for name in template.variables {
            if let allowed {
                guard allowed.contains(name) else {
                    let options = allowed.isEmpty ? "no {…} placeholders are available here (use ${NAME} for environment variables)"
                        : "available: " + allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
                    throw reader.error("unknown placeholder {\(name)} in \(what); \(options)")
                }
            } else {
                do { _ = try FieldPath(parsing: name) } catch {
                    throw reader.error("placeholder {\(name)} is not a valid field path: \(error.reason)")
                }
            }
        }
        return template
    }

    private static func decodeRequest(_ object: ConfigObject, allowed: Set<String>?) throws(ConfigError) -> RequestTemplate {
        let method = try object.optional("method")?.choice(["GET"], what: "method") ?? "GET"
        let path = try decodeTemplate(try object.required("path"), allowed: allowed, what: "path")
        var query: [QueryTemplate] = []
        if let reader = object.optional("query") {
            for (key, value) in try reader.entries() {
                query.append(QueryTemplate(name: key, value: try decodeTemplate(value, allowed: allowed, what: "query parameter")))
            }
        }
        return RequestTemplate(method: method, path: path, query: query)
    }

    private static func decodeList(_ reader: ConfigReader, incremental: IncrementalPull?) throws(ConfigError) -> ListRequest {
        let object = try reader.object()
        let paginate = try object.optional("paginate").map { reader throws(ConfigError) in try decodePagination(reader) } ?? .none
        var allowed = paginate.templateVariables
        if incremental != nil { allowed.insert("since") }
        let request = try decodeRequest(object, allowed: allowed)
        let used = Set(request.path.variables + request.query.flatMap { $0.value.variables })
        if paginate.kind == .cursor, !used.contains("cursor"), paginate.cursorParam == nil {
            throw ConfigError(path: ConfigReader.join(object.path, "paginate"),
                              message: "cursor paging needs {cursor} in list.path or list.query, or \"param\" naming the query parameter")
        }
        if let incremental, incremental.param == nil, !used.contains("since") {
            throw ConfigError(path: ConfigReader.join(object.path, "query"),
                              message: "incremental pulls need {since} in list.path or list.query, or incremental.param")
        }
        let records = try decodeRecords(try object.required("records"))
        let success = try object.optional("success").map { reader throws(ConfigError) in try decodeSuccess(reader) }
        let format = try BodyFormat(rawValue: object.optional("format")?.choice(["json", "ndjson"], what: "format") ?? "json")!
        try object.finish()
        return ListRequest(request: request, paginate: paginate, records: records, success: success, format: format)
    }

    private static func decodeFile(_ reader: ConfigReader) throws(ConfigError) -> FileInput {
        if case .string = reader.value {
            let path = try reader.nonEmptyString()
            let format: BodyFormat = path.lowercased().hasSuffix(".ndjson") || path.lowercased().hasSuffix(".jsonl") ? .ndjson : .json
            return FileInput(path: path, format: format, records: .array(at: nil, ifMissing: .error, nonObjects: .skip))
        }
        let object = try reader.object()
        let path = try object.required("path").nonEmptyString()
        let format = try BodyFormat(rawValue: object.optional("format")?.choice(["json", "ndjson"], what: "format")
            ?? (path.lowercased().hasSuffix(".ndjson") || path.lowercased().hasSuffix(".jsonl") ? "ndjson" : "json"))!
        let records = try object.optional("records").map { reader throws(ConfigError) in try decodeRecords(reader) }
            ?? .array(at: nil, ifMissing: .error, nonObjects: .skip)
        try object.finish()
        return FileInput(path: path, format: format, records: records)
    }

    static func decodePagination(_ reader: ConfigReader) throws(ConfigError) -> Pagination {
        let object = try reader.object()
        let typeReader = try object.required("type")
        let typeText = try typeReader.string()
        let kinds = Pagination.Kind.allCases.filter { $0 != .none }
        guard let kind = Pagination.Kind(rawValue: typeText), kind != .none else {
            throw reader.error("unknown type \"\(typeText)\"; expected one of \(kinds.map(\.rawValue).joined(separator: ", "))")
        }
        var pagination = Pagination(kind: kind, first: kind == .offset ? 0 : 1, size: nil, totalPages: nil, totalItems: nil,
                                    isEnd: nil, next: nil, cursorParam: nil, stopOnShortPage: false, stopOnEmptyPage: true,
                                    maxPages: 1000)
        pagination.isEnd = try object.optionalFieldPath("isEnd")
        pagination.maxPages = try object.optionalInt("maxPages", in: 1...10_000_000) ?? 1000
        pagination.stopOnEmptyPage = try object.optionalBool("stopOnEmptyPage") ?? true
        switch kind {
        case .none:
            break
        case .page:
            pagination.first = try object.optionalInt("firstPage", in: 0...1_000_000) ?? 1
            pagination.size = try object.optionalInt("pageSize", in: 1...1_000_000)
            pagination.totalPages = try object.optionalFieldPath("totalPages")
            pagination.totalItems = try object.optionalFieldPath("totalItems")
            pagination.stopOnShortPage = try object.optionalBool("stopOnShortPage") ?? false
            if (pagination.totalItems != nil || pagination.stopOnShortPage), pagination.size == nil {
                throw object.error("\"pageSize\" is needed to use totalItems or stopOnShortPage")
            }
        case .range:
            pagination.first = try object.optionalInt("first", in: 0...Int(Int32.max)) ?? 1
            pagination.size = try object.required("size").int(in: 1...1_000_000)
            pagination.totalItems = try object.optionalFieldPath("totalItems")
            pagination.stopOnShortPage = try object.optionalBool("stopOnShortPage") ?? false
        case .offset:
            pagination.first = try object.optionalInt("first", in: 0...Int(Int32.max)) ?? 0
            pagination.size = try object.required("limit").int(in: 1...1_000_000)
            pagination.totalItems = try object.optionalFieldPath("totalItems")
            pagination.stopOnShortPage = try object.optionalBool("stopOnShortPage") ?? false
        case .cursor:
            pagination.next = try object.required("next").fieldPath()
            pagination.cursorParam = try object.optionalString("param")
        case .nextLink:
            pagination.next = try object.optionalFieldPath("next")
        }
        try object.finish()
        return pagination
    }

    static func decodeRecords(_ reader: ConfigReader) throws(ConfigError) -> RecordSelection {
        if case .string = reader.value {
            return .array(at: try recordsPath(reader), ifMissing: .error, nonObjects: .skip)
        }
        let object = try reader.object()
        let nonObjects = try NonObjectPolicy(rawValue: object.optional("nonObjects")?.choice(["skip", "fail"], what: "policy") ?? "skip")!
        let which = try object.exactlyOne(of: ["path", "map"])
        let selection: RecordSelection
        if which.key == "path" {
            let missing = try RecordSelection.MissingRecords(rawValue: object.optional("ifMissing")?.choice(["error", "empty"], what: "policy") ?? "error")!
            selection = .array(at: try recordsPath(which.value), ifMissing: missing, nonObjects: nonObjects)
        } else {
            selection = .map(at: try recordsPath(which.value), keyField: try object.required("keyField").fieldPath(), nonObjects: nonObjects)
        }
        try object.finish()
        return selection
    }

    private static func recordsPath(_ reader: ConfigReader) throws(ConfigError) -> FieldPath? {
        let text = try reader.string()
        if text == "$" || text.isEmpty { return nil }
        return try reader.fieldPath()
    }

    static func decodeSuccess(_ reader: ConfigReader) throws(ConfigError) -> SuccessCheck {
        let object = try reader.object()
        let fields = try object.required("field").fieldPaths()
        let which = try object.exactlyOne(of: ["equals", "in"])
        let accepted = try scalarTexts(which.value)
        let noData = try object.optional("noData").map { reader throws(ConfigError) in try scalarTexts(reader) } ?? []
        let messages = try object.optional("message")?.fieldPaths() ?? []
        try object.finish()
        return SuccessCheck(fields: fields, accepted: accepted, noData: noData, messages: messages)
    }

    private static func scalarTexts(_ reader: ConfigReader) throws(ConfigError) -> [String] {
        let elements: [ConfigReader]
        if case .array = reader.value { elements = try reader.array() } else { elements = [reader] }
        var texts: [String] = []
        for element in elements {
            guard let text = RESTSource.scalarText(element.value) else {
                throw element.error("expected a string, number or boolean, found \(ConfigReader.describe(element.value))")
            }
            texts.append(text)
        }
        return texts
    }

    private static func decodeDetail(_ reader: ConfigReader) throws(ConfigError) -> DetailRequest {
        let object = try reader.object()
        let request = try decodeRequest(object, allowed: nil)
        let record = try object.optional("record").flatMap { reader throws(ConfigError) in try recordsPath(reader) }
        let fields = try object.optional("fields")?.fieldPaths()
        let rename = try object.optional("rename").map { reader throws(ConfigError) in try decodeRenames(reader) } ?? []
        let into = try object.optionalFieldPath("into")
        let onNotFound = try object.optional("onNotFound")?.choice(["fail", "drop"], what: "policy") ?? "fail"
        let success = try object.optional("success").map { reader throws(ConfigError) in try decodeSuccess(reader) }
        let refreshWord = try object.optional("refresh")?.choice(["always", "changed"], what: "refresh policy") ?? "always"
        let maximumAge = try object.optionalDouble("maxAgeSeconds", in: 0...1e9)
        if maximumAge != nil && refreshWord != "changed" {
            throw object.error("maxAgeSeconds applies only with \"refresh\": \"changed\"")
        }
        try object.finish()
        var detail = DetailRequest(request: request, record: record, fields: fields, rename: rename, into: into,
                                   dropOnNotFound: onNotFound == "drop", success: success)
        detail.refresh = refreshWord == "changed" ? .changed(maximumAge: maximumAge) : .always
        return detail
    }

    private static func decodeRenames(_ reader: ConfigReader) throws(ConfigError) -> [FieldRename] {
        var result: [FieldRename] = []
        for (key, value) in try reader.entries() {
            let from: FieldPath
            do { from = try FieldPath(parsing: key) } catch {
                throw ConfigError(path: value.path, message: "\"\(key)\" is not a valid field path: \(error.reason)")
            }
            result.append(FieldRename(from: from, to: try value.fieldPath()))
        }
        return result
    }

    static let stepNames = ["pick", "rename", "drop", "set", "htmlToText", "trim", "sections", "split", "convert"]

    static func decodeStep(_ reader: ConfigReader) throws(ConfigError) -> ShapeStep {
        let object = try reader.object()
        guard object.members.count == 1, let name = object.members.keys.first else {
            throw reader.error("a shaping step is an object with exactly one key, the step name (one of \(stepNames.joined(separator: ", ")))")
        }
        guard stepNames.contains(name) else {
            var message = "unknown shaping step \"\(name)\""
            if let suggestion = Suggestion.nearest(to: name, in: stepNames) { message += "; did you mean \"\(suggestion)\"?" }
            else { message += "; expected one of \(stepNames.joined(separator: ", "))" }
            throw reader.error(message)
        }
        let body = try object.required(name)
        switch name {
        case "pick": return .pick(try body.fieldPaths())
        case "drop": return .drop(try body.fieldPaths())
        case "htmlToText": return .htmlToText(try body.fieldPaths())
        case "trim": return .trim(try body.fieldPaths())
        case "rename": return .rename(try decodeRenames(body))
        case "set":
            var assignments: [FieldAssignment] = []
            for (key, value) in try body.entries() {
                let field: FieldPath
                do { field = try FieldPath(parsing: key) } catch {
                    throw ConfigError(path: value.path, message: "\"\(key)\" is not a valid field path: \(error.reason)")
                }
                let spec = try value.object()
                let which = try spec.exactlyOne(of: ["value", "template"])
                let assigned: FieldAssignment.Value = which.key == "value"
                    ? .constant(which.value.value)
                    : .template(try decodeTemplate(which.value, allowed: nil, what: "template", allowEnvironment: false))
                try spec.finish()
                assignments.append(FieldAssignment(field: field, value: assigned))
            }
            return .set(assignments)
        case "sections":
            let spec = try body.object()
            let from = try spec.required("from").fieldPath()
            var labels: [SectionsStep.Label] = []
            for (key, value) in try spec.required("labels").entries() {
                guard !key.trimmingWhitespace().isEmpty, !key.contains(":") else {
                    throw ConfigError(path: value.path, message: "a label is the text before the colon, without the colon")
                }
                labels.append(SectionsStep.Label(label: key.trimmingWhitespace(), field: try value.fieldPath()))
            }
            guard !labels.isEmpty else { throw spec.error("\"labels\" may not be empty") }
            let dropSource = try spec.optionalBool("dropSource") ?? false
            try spec.finish()
            return .sections(SectionsStep(from: from, labels: labels, dropSource: dropSource))
        case "split":
            let spec = try body.object()
            let fields = try spec.required("fields").fieldPaths()
            let separators = try spec.optional("separators")?.strings() ?? [","]
            guard !separators.isEmpty, !separators.contains("") else {
                throw ConfigError(path: ConfigReader.join(spec.path, "separators"), message: "needs at least one non-empty separator")
            }
            let step = SplitStep(fields: fields, separators: separators, trim: try spec.optionalBool("trim") ?? true,
                                 dropEmpty: try spec.optionalBool("dropEmpty") ?? true,
                                 stripTrailingPunctuation: try spec.optionalBool("stripTrailingPunctuation") ?? true)
            try spec.finish()
            return .split(step)
        default: // convert
            let spec = try body.object()
            let fields = try spec.required("fields").fieldPaths()
            let target = try ConvertStep.Target(rawValue: spec.required("to").choice(ConvertStep.Target.allCases.map(\.rawValue), what: "type"))!
            let strip = try spec.optionalString("stripCharacters") ?? ""
            let empty = try ConvertStep.EmptyPolicy(rawValue: spec.optional("empty")?.choice(["null", "drop", "keep", "fail"], what: "policy") ?? "null")!
            try spec.finish()
            return .convert(ConvertStep(fields: fields, to: target, stripCharacters: strip, empty: empty))
        }
    }

    static func decodeKey(_ reader: ConfigReader) throws(ConfigError) -> KeyRule {
        if case .string = reader.value { return .field(try reader.fieldPath()) }
        let object = try reader.object()
        let which = try object.exactlyOne(of: ["field", "template", "hash"])
        let rule: KeyRule
        switch which.key {
        case "field": rule = .field(try which.value.fieldPath())
        case "template": rule = .template(try decodeTemplate(which.value, allowed: nil, what: "key template", allowEnvironment: false))
        default:
            let fields = try which.value.fieldPaths()
            guard !fields.isEmpty else { throw which.value.error("needs at least one field") }
            rule = .hash(fields)
        }
        try object.finish()
        return rule
    }

    private static func decodeHTTP(_ reader: ConfigReader?) throws(ConfigError) -> HTTPSettings {
        var settings = HTTPSettings()
        guard let reader else { return settings }
        let object = try reader.object()
        settings.timeout = try object.optionalDouble("timeoutSeconds", in: 0.001...3600) ?? settings.timeout
        settings.retries = try object.optionalInt("retries", in: 0...20) ?? settings.retries
        settings.backoff = try object.optionalDouble("backoffSeconds", in: 0...600) ?? settings.backoff
        settings.maxBackoff = try object.optionalDouble("maxBackoffSeconds", in: 0...3600) ?? settings.maxBackoff
        settings.maxRetryAfter = try object.optionalDouble("maxRetryAfterSeconds", in: 0...86_400) ?? settings.maxRetryAfter
        settings.requestsPerSecond = try object.optionalDouble("requestsPerSecond", in: 0.001...100_000)
        settings.concurrency = try object.optionalInt("concurrency", in: 1...256) ?? settings.concurrency
        try object.finish()
        return settings
    }

    private static func decodeIncremental(_ reader: ConfigReader?) throws(ConfigError) -> IncrementalPull? {
        guard let reader else { return nil }
        let object = try reader.object()
        let pull = IncrementalPull(field: try object.required("field").fieldPath(), param: try object.optionalString("param"),
                                   initial: try object.optionalString("initial"),
                                   lag: try object.optionalDouble("lag", in: 0...1e12))
        try object.finish()
        return pull
    }
}
