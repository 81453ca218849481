import DocModel
import Foundation
import SampleAPI

/// Serves the four sample API shapes (perfume shop, recipe database, image
/// search, coin ticker). The perfume shop is the one `PerfumeSampleAPI` (the
/// SampleAPI target, which `docsync-demo` serves too) behind a RapidAPI key
/// check; the others, and the perfume results tests expect, come from a
/// fixtures directory laid out like `/work/shared/samples`:
/// `perfume/expected/ID.json`, `recipe/rows.json`,
/// `image-search/documents.json`, `ticker/ALL_KRW.json`, `ticker/error.json`.
///
/// Answers the way the real APIs do, including their faults: the recipe API's
/// errors come back with HTTP 200 and a `RESULT.CODE`, the image search needs
/// `Authorization: KakaoAK <key>`. Paging honours any page size.
///
/// ```swift
/// let api = try SampleAPIs(fixtures: fixturesURL, keys: .init(food: "k1"))
/// let server = try LoopbackHTTPServer { request in api.handle(request) }
/// ```
public struct SampleAPIs: Sendable {
    /// Secrets the endpoints expect; nil means "any value, or none".
    public struct Keys: Sendable {
        public var rapidAPI: String?
        public var food: String?
        public var kakao: String?
        public init(rapidAPI: String? = nil, food: String? = nil, kakao: String? = nil) {
            self.rapidAPI = rapidAPI
            self.food = food
            self.kakao = kakao
        }
    }

    /// The perfume shop (150 products on three list pages, one detail call each).
    public let perfume: PerfumeSampleAPI
    /// Expected sections by product id (`perfume/expected/ID.json`).
    public let perfumeExpected: [String: JSONValue]
    public let recipeRows: [JSONValue]
    public let imageDocuments: [JSONValue]
    public let tickerBody: [UInt8]
    public let tickerErrorBody: [UInt8]
    public let keys: Keys

    /// Loads the fixtures.
    /// - Throws: a file or JSON error when a fixture is missing or invalid.
    public init(fixtures: URL, keys: Keys = Keys()) throws {
        func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path))) }
        func parse(_ path: String) throws -> JSONValue { try JSONValue(parsing: try read(path)) }
        let fileManager = FileManager.default

        perfume = PerfumeSampleAPI()

        var expected: [String: JSONValue] = [:]
        let expectedDirectory = fixtures.appendingPathComponent("perfume/expected")
        for name in (try? fileManager.contentsOfDirectory(atPath: expectedDirectory.path)) ?? [] where name.hasSuffix(".json") {
            expected[String(name.dropLast(5))] = try parse("perfume/expected/\(name)")
        }
        perfumeExpected = expected

        recipeRows = try parse("recipe/rows.json").arrayValue ?? []
        imageDocuments = try parse("image-search/documents.json").arrayValue ?? []
        tickerBody = try read("ticker/ALL_KRW.json")
        tickerErrorBody = try read("ticker/error.json")
        self.keys = keys
    }

    /// Answers one request; unknown paths get 404.
    public func handle(_ request: HTTPRequestRecord) -> HTTPResponseSpec {
        let path = request.pathWithoutQuery
        let query = request.query
        if path == "/products/list" || path == "/products/detail" { return perfumeShop(request) }
        if path.hasPrefix("/api/") { return recipes(path) }
        if path == "/v2/search/image" { return images(request, query) }
        if path == "/public/ticker/ALL_KRW" { return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"], body: tickerBody) }
        return .json(#"{"message":"no such endpoint"}"#, status: 404)
    }

    private func rapidAPIRejection(_ request: HTTPRequestRecord) -> HTTPResponseSpec? {
        guard let expected = keys.rapidAPI else { return nil }
        guard request.headers["x-rapidapi-key"] == expected else {
            return .json(#"{"message":"You are not subscribed to this API."}"#, status: 403)
        }
        return nil
    }

    private func perfumeShop(_ request: HTTPRequestRecord) -> HTTPResponseSpec {
        if let rejection = rapidAPIRejection(request) { return rejection }
        let (status, body) = perfume.respond(method: request.method, target: request.path)
        return .json(body, status: status)
    }

    /// `/api/{key}/COOKRCP01/json/{start}/{end}[/RCP_PARTS_DTLS=…]`
    private func recipes(_ path: String) -> HTTPResponseSpec {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "api", key, "COOKRCP01", "json", start, end, …
        guard segments.count >= 7, segments[3] == "COOKRCP01", segments[4] == "json" else {
            return .json(#"{"RESULT":{"MSG":"요청하신 서비스가 없습니다.","CODE":"ERROR-310"}}"#)
        }
        let key = segments[2].removingPercentEncoding ?? segments[2]
        if let expected = keys.food, key != expected {
            return .json(#"{"RESULT":{"MSG":"인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.","CODE":"INFO-100"}}"#)
        }
        guard let start = Int(segments[5]), let end = Int(segments[6]), start >= 1, end >= start else {
            return .json(#"{"RESULT":{"MSG":"요청위치 값의 타입이 유효하지 않습니다.","CODE":"ERROR-331"}}"#)
        }
        guard end - start < 1000 else {
            return .json(#"{"RESULT":{"MSG":"데이터요청은 한번에 최대 1000건을 넘을 수 없습니다.","CODE":"ERROR-336"}}"#)
        }
        guard start <= recipeRows.count else {
            return .json(#"{"COOKRCP01":{"total_count":"0","RESULT":{"MSG":"해당하는 데이터가 없습니다.","CODE":"INFO-200"}}}"#)
        }
        let rows = Array(recipeRows[(start - 1)..<min(end, recipeRows.count)])
        let body: JSONValue = ["COOKRCP01": [
            "total_count": .string(String(recipeRows.count)),
            "row": .array(rows),
            "RESULT": ["MSG": "정상처리되었습니다.", "CODE": "INFO-000"],
        ]]
        return .json(body.canonicalText)
    }

    private func images(_ request: HTTPRequestRecord, _ query: [String: String]) -> HTTPResponseSpec {
        if let expected = keys.kakao, request.headers["authorization"] != "KakaoAK \(expected)" {
            return .json(#"{"errorType":"AccessDeniedError","message":"wrong appKey format"}"#, status: 401)
        }
        let page = Int(query["page"] ?? "1") ?? 0
        let size = Int(query["size"] ?? "80") ?? 0
        guard (1...50).contains(page), (1...80).contains(size) else {
            return .json(#"{"errorType":"InvalidArgument","message":"page is more than max"}"#, status: 400)
        }
        let start = min((page - 1) * size, imageDocuments.count)
        let end = min(start + size, imageDocuments.count)
        let body: JSONValue = [
            "meta": [
                "total_count": .int(Int64(imageDocuments.count)),
                "pageable_count": .int(Int64(imageDocuments.count)),
                "is_end": .bool(end >= imageDocuments.count),
            ],
            "documents": .array(Array(imageDocuments[start..<end])),
        ]
        return .json(body.canonicalText)
    }
}
