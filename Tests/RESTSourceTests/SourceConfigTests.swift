import DocModel
import RESTSource
import Testing

/// Config decoding: what is accepted, and errors that name the path of the mistake.
@Suite(.timeLimit(.minutes(3))) struct SourceConfigTests {
    private func decode(_ json: String) throws(ConfigError) -> SourceConfig {
        let value = try! JSONValue(parsing: json)
        return try SourceConfig.decode(value, at: "sources[0]")
    }

    private func error(_ json: String) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error.description
        }
    }

    private let minimal = #"{"name": "s", "baseURL": "https://api.test", "list": {"path": "/items", "records": "items"}, "key": "id"}"#

    @Test func sampleConfigsDecode() throws {
        for json in [PullHarness.perfume, PullHarness.recipes, PullHarness.images, PullHarness.ticker] {
            _ = try decode(json.replacingOccurrences(of: "BASE", with: "http://127.0.0.1:1"))
        }
        let config = try decode(PullHarness.perfume.replacingOccurrences(of: "BASE", with: "http://x"))
        #expect(config.name == "perfume")
        #expect(config.list?.paginate.kind == .page)
        #expect(config.list?.paginate.size == 60)
        #expect(config.http.concurrency == 8)
        #expect(config.shape.count == 7)
        #expect(config.requiredEnvironment.map(\.name) == ["RAPIDAPI_KEY"])
    }

    @Test func unknownKeyIsAnErrorWithASuggestion() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "hedaers": {}"#)
        #expect(error(json) == #"sources[0].hedaers: unknown key "hedaers"; did you mean "headers"?"#)
    }

    @Test func unknownNestedKeyNamesItsPath() {
        let json = minimal.replacingOccurrences(of: #""records": "items""#, with: #""records": "items", "paginate": {"type": "page", "pageSize": 10, "sizes": 3}"#)
        #expect(error(json)?.hasPrefix(#"sources[0].list.paginate.sizes: unknown key "sizes""#) == true)
    }

    @Test func unknownPaginateTypeListsTheTypes() {
        let json = minimal.replacingOccurrences(of: #""records": "items""#, with: #""records": "items", "paginate": {"type": "pages"}"#)
        #expect(error(json) == #"sources[0].list.paginate: unknown type "pages"; expected one of page, range, offset, cursor, nextLink"#)
    }

    @Test func wrongTypeNamesExpectedAndFound() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "http": {"retries": "3"}"#)
        #expect(error(json) == #"sources[0].http.retries: expected an integer, found string "3""#)
        let range = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "http": {"concurrency": 0}"#)
        #expect(error(range) == "sources[0].http.concurrency: must be between 1 and 256, found 0")
    }

    @Test func missingRequiredKeyIsNamed() {
        #expect(error(#"{"name": "s", "baseURL": "https://a.test", "list": {"path": "/x", "records": "x"}}"#)
            == #"sources[0]: missing required key "key""#)
    }

    @Test func placeholderThatPagingCannotFillIsAnError() {
        let json = minimal.replacingOccurrences(of: #""path": "/items""#, with: #""path": "/items", "query": {"p": "{page}"}"#)
        #expect(error(json) == "sources[0].list.query.p: unknown placeholder {page} in query parameter; no {…} placeholders are available here (use ${NAME} for environment variables)")
        let range = minimal.replacingOccurrences(of: #""path": "/items""#, with: #""path": "/items/{start}/{stop}", "paginate": {"type": "range", "size": 5}"#)
        #expect(error(range) == "sources[0].list.path: unknown placeholder {stop} in path; available: {end}, {size}, {start}")
    }

    @Test func unknownShapingStepSuggestsTheNearestName() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "shape": [{"pick": ["id"]}, {"rename": {"a": "b"}}, {"covert": {}}]"#)
        #expect(error(json) == #"sources[0].shape[2]: unknown shaping step "covert"; did you mean "convert"?"#)
    }

    @Test func convertTargetMustBeKnown() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "shape": [{"convert": {"fields": "a", "to": "float"}}]"#)
        #expect(error(json) == #"sources[0].shape[0].convert.to: unknown type "float"; expected one of number, int, double, bool, string, timestamp, epochSeconds, epochMillis"#)
    }

    @Test func environmentValuesCannotGoIntoDocuments() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "shape": [{"set": {"token": {"template": "${TOKEN}"}}}]"#)
        #expect(error(json)?.hasPrefix("sources[0].shape[0].set.token.template: ${TOKEN} is not allowed in a template") == true)
    }

    @Test func headerPathsQuoteNamesThatAreNotSimple() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "headers": {"X-Api-Key": 5}"#)
        #expect(error(json) == #"sources[0].headers["X-Api-Key"]: expected a string, found integer 5"#)
    }

    @Test func badTemplateAndFieldPathAreReported() {
        let template = minimal.replacingOccurrences(of: #""path": "/items""#, with: #""path": "/items/{page""#)
        #expect(error(template)?.hasPrefix(#"sources[0].list.path: unterminated "{""#) == true)
        let field = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "a..b""#)
        #expect(error(field)?.hasPrefix(#"sources[0].key: invalid field path "a..b""#) == true)
    }

    @Test func cursorPagingNeedsSomewhereToSendTheCursor() {
        let json = minimal.replacingOccurrences(of: #""records": "items""#, with: #""records": "items", "paginate": {"type": "cursor", "next": "meta.next"}"#)
        #expect(error(json)?.hasPrefix("sources[0].list.paginate: cursor paging needs {cursor}") == true)
    }

    @Test func fileAndBaseURLAreExclusive() {
        let json = minimal.replacingOccurrences(of: #""key": "id""#, with: #""key": "id", "file": "x.ndjson""#)
        #expect(error(json)?.hasPrefix("sources[0]: has \"file\" and \"baseURL\"") == true)
        let file = try? decode(#"{"name": "f", "file": "data/items.ndjson", "key": "id"}"#)
        #expect(file?.file?.format == .ndjson)
    }

    @Test func readerSupportsOtherConfigSections() throws {
        let root = try ConfigReader(try JSONValue(parsing: #"{"store": {"path": "x.sqlite", "busyTimeout": 5}, "extra": 1}"#), at: "").object()
        let store = try root.required("store").object()
        #expect(try store.string("path") == "x.sqlite")
        #expect(try store.optionalInt("busyTimeout", in: 0...60) == 5)
        #expect(throws: Never.self) { try store.finish() }
        #expect(throws: ConfigError(path: "extra", message: #"unknown key "extra"; expected one of store"#)) { try root.finish() }
    }
}
