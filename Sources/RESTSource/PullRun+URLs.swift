import DocModel
import FoundationEssentials

/// Request URLs: templates rendered and percent-encoded, `Link` headers, the
/// incremental cursor minus its lag.
extension PullRun {
    /// `buildURL` for the list request: a placeholder without a value is a
    /// setup problem (say `{since}` in the path with no saved cursor and no
    /// `incremental.initial`), reported as a `SourceError`.
    func listURL(_ request: RequestTemplate, values: (String) -> String?, extraQuery: [(String, String)]) throws -> URL {
        do {
            return try buildURL(request, values: values, extraQuery: extraQuery)
        } catch let error as TemplateRenderError {
            let hint = error.missing == "since" ? "; set incremental.initial or use incremental.param" : ""
            throw SourceError.invalidURL(url: redactor(request.path.description), reason: "no value for {\(error.missing)}\(hint)")
        }
    }

    /// The URL of `rel="next"` in a `Link` header.
    static func nextLink(inLinkHeader header: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let isNext = pieces.dropFirst().contains { parameter in
                let lowered = parameter.lowercased().replacing(" ", with: "")
                return lowered == "rel=\"next\"" || lowered == "rel=next" || (lowered.hasPrefix("rel=\"") && lowered.dropFirst(5).dropLast().split(separator: " ").contains("next"))
            }
            if isNext { return String(target.dropFirst().dropLast()) }
        }
        return nil
    }

    /// The cursor to send: the saved one (or `initial`) minus the lag.
    func sinceValue() -> String? {
        guard let incremental = config.incremental, let raw = initialCursor ?? incremental.initial else { return nil }
        guard let lag = incremental.lag, lag > 0 else { return raw }
        if let number = ValueConversion.parseNumber(raw) {
            if case .int(let integer) = number, lag.rounded() == lag { return String(integer - Int64(lag)) }
            return JSONValue.double((number.numberValue ?? 0) - lag).canonicalText
        }
        if let timestamp = Timestamp(lenient: raw),
           let earlier = try? Timestamp(microsecondsSinceEpoch: timestamp.microsecondsSinceEpoch - Int64(lag * 1_000_000)) {
            return earlier.description
        }
        return raw
    }

    /// Builds a request URL: base URL + path (or an absolute path), query
    /// parameters in config order (a parameter whose placeholder has no value
    /// yet, such as `{cursor}` on the first page, is left out), then `extraQuery`.
    func buildURL(_ request: RequestTemplate, values: (String) -> String?, extraQuery: [(String, String)] = []) throws -> URL {
        let path = try request.path.render(value: values, environment: environment,
                                           encode: { PercentEncoding.encode($0, keeping: PercentEncoding.segmentAllowed) },
                                           encodeLiteral: { PercentEncoding.encode($0, keeping: Self.pathLiteralAllowed) })
        var text: String
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") {
            text = path
        } else {
            var base = try Template(parsing: config.baseURL ?? "").render(value: { _ in nil }, environment: environment)
            while base.hasSuffix("/") { base.removeLast() }
            text = base + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
        }
        var pairs: [String] = []
        for item in request.query {
            let rendered: String
            do {
                rendered = try item.value.render(value: values, environment: environment,
                                                 encode: { PercentEncoding.encode($0, keeping: Self.queryAllowed) },
                                                 encodeLiteral: { PercentEncoding.encode($0, keeping: Self.queryAllowed) })
            } catch {
                if Self.isOptionalPlaceholder(error) { continue }
                throw error
            }
            pairs.append(PercentEncoding.encode(item.name, keeping: Self.queryAllowed) + "=" + rendered)
        }
        for (name, value) in extraQuery {
            pairs.append(PercentEncoding.encode(name, keeping: Self.queryAllowed) + "="
                         + PercentEncoding.encode(value, keeping: Self.queryAllowed))
        }
        if !pairs.isEmpty { text += (text.contains("?") ? "&" : "?") + pairs.joined(separator: "&") }
        guard let url = URL(string: text), url.scheme != nil else {
            throw SourceError.invalidURL(url: redactor(text), reason: "not a valid URL")
        }
        return url
    }

    /// `{cursor}` and `{since}` have no value on a first run: their parameter is left out.
    static func isOptionalPlaceholder(_ error: TemplateRenderError) -> Bool {
        !error.isEnvironment && (error.missing == "cursor" || error.missing == "since")
    }

    /// A literal part of a path template keeps its slashes, escapes and delimiters.
    static let pathLiteralAllowed = PercentEncoding.segmentAllowed.union("/%?#[]".utf8)
    static let queryAllowed = PercentEncoding.unreserved.union("!$'()*,;:@/?".utf8)
}
