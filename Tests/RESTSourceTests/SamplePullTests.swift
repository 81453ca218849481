import DocModel
import Foundation
import RESTSource
import Testing
import TestSupport

/// End-to-end pulls of the four sample API shapes over real HTTP.
@Suite(.timeLimit(.minutes(3))) struct SamplePullTests {
    @Test func perfumePullsAllProductsOverThreePagesWithOneDetailCallEach() async throws {
        let api = try PullHarness.sampleAPI(keys: .init(rapidAPI: "rk-secret-1"))
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { api.handle($0) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.perfume, base: server.baseURL)
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: ["RAPIDAPI_KEY": "rk-secret-1"]))

        #expect(pulled.failures.isEmpty)
        #expect(pulled.summary == PullSummary(pages: 3, records: 150, failed: 0, skipped: 0, detailCalls: 150))
        #expect(pulled.records.map(\.key) == api.perfume.productIDs)
        let requests = log.withLock { $0 }
        #expect(requests.filter { $0.pathWithoutQuery == "/products/list" }.map { $0.query["currentPage"] } == ["1", "2", "3"])
        #expect(requests.filter { $0.pathWithoutQuery == "/products/detail" }.count == 150)
        #expect(requests.allSatisfy { $0.headers["x-rapidapi-host"] == "sephora.p.rapidapi.com" })

        let documents = pulled.byKey
        #expect(api.perfumeExpected.count == 150)
        for (id, expected) in api.perfumeExpected {
            let document = try #require(documents[id], "no record \(id)")
            for field in ["fragranceFamily", "scentType", "keyNotes"] {
                let wanted = expected[field] ?? .null
                let got = document[field]
                if wanted.isNull {
                    #expect(got == nil, "\(id).\(field) should be absent, is \(got?.canonicalText ?? "")")
                } else {
                    #expect(got == wanted, "\(id).\(field): got \(got?.canonicalText ?? "absent"), want \(wanted.canonicalText)")
                }
            }
        }
        let first = try #require(documents["P500000"])
        #expect(first["rating"] == .double(3.8582))
        #expect(first["reviews"] == .int(950))
        #expect(first["currentSku"]?["listPrice"] == .double(284))
        #expect(first["summary"] == .string("A warm & spicy scent with notes of teakwood."))
        #expect(first["source"] == .string("sephora"))
        #expect(first["longDescription"]?.stringValue?.hasPrefix("Fragrance Family: Warm & Spicy\nScent Type: Warm Spicy") == true)
        // Without a detail cache no fingerprint is computed (it costs a hash per record).
        #expect(pulled.records.allSatisfy { $0.listFingerprint == nil })
    }

    @Test func recipesArriveOverInclusiveRangesOfTen() async throws {
        let api = try PullHarness.sampleAPI(keys: .init(food: "food-key-77"))
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { api.handle($0) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.recipes, base: server.baseURL)
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: ["FOOD_KEY": "food-key-77"]))

        #expect(pulled.failures.isEmpty)
        #expect(pulled.summary?.records == 37)
        #expect(pulled.summary?.pages == 4)
        #expect(Set(pulled.records.map(\.key)).count == 37)
        let paths = log.withLock { $0.map(\.pathWithoutQuery) }
        #expect(paths.map { $0.split(separator: "/")[4...5].joined(separator: "-") } == ["1-10", "11-20", "21-30", "31-40"])
        #expect(paths[0].hasSuffix("/RCP_PARTS_DTLS=%EB%8F%BC%EC%A7%80%EA%B3%A0%EA%B8%B0"))
        let recipe = try #require(pulled.byKey["20"])
        #expect(recipe["INFO_ENG"] == .int(389))
        #expect(recipe["INFO_CAR"] == .double(17.4))
        #expect(recipe["INFO_WGT"] == .null)
        #expect(recipe["RCP_PARTS_DTLS"] == ["돼지고기 100g", "양파 50g", "대파 10g"])
    }

    @Test func recipesWithoutTotalStopAtTheNoDataAnswer() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { api.handle($0) }
        defer { server.stop() }
        let json = PullHarness.recipes.replacingOccurrences(of: #", "totalItems": "COOKRCP01.total_count""#, with: "")
        let config = try PullHarness.config(json, base: server.baseURL)
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: ["FOOD_KEY": "k"]))
        #expect(pulled.summary?.records == 37)
        #expect(pulled.summary?.pages == 5)
    }

    @Test func imagesStopAtIsEndAndKeepTheSameHashKeysOnTheNextPull() async throws {
        let api = try PullHarness.sampleAPI(keys: .init(kakao: "kakao-secret"))
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { api.handle($0) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.images, base: server.baseURL)
        let source = RESTSource(config: config, environment: ["KAKAO_KEY": "kakao-secret"])
        let first = try await PullHarness.collect(source)
        let second = try await PullHarness.collect(source)

        #expect(first.failures.isEmpty)
        #expect(first.summary?.records == 71)
        #expect(first.summary?.pages == 3)
        #expect(Set(first.records.map(\.key)).count == 71)
        #expect(first.records.map(\.key) == second.records.map(\.key))
        #expect(first.records.allSatisfy { $0.key.count == 32 && $0.key.allSatisfy(\.isHexDigit) })
        let requests = log.withLock { $0 }
        #expect(requests.prefix(3).map { $0.query["page"] } == ["1", "2", "3"])
        #expect(requests.allSatisfy { $0.query["query"] == "고양이 사진" && $0.query["size"] == "30" })
        #expect(first.records[0].document["datetime"] == ["$timestamp": "2017-01-10T06:59:30Z"])
    }

    @Test func tickerSkipsTheStrayDateAndConvertsPrices() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { api.handle($0) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.ticker, base: server.baseURL)
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: [:]))

        #expect(pulled.summary == PullSummary(pages: 1, records: 12, failed: 0, skipped: 1, detailCalls: 0))
        #expect(pulled.records.map(\.key) == pulled.records.map(\.key).sorted())
        let btc = try #require(pulled.byKey["BTC"])
        #expect(btc["symbol"] == "BTC")
        #expect(btc["closing_price"] == .int(26_460_101))
        #expect(btc["units_traded"] == .double(79667.25614592))
        #expect(btc["fluctate_24H"] == .int(471_862))
        #expect(pulled.byKey["date"] == nil)
    }

    @Test func tickerRejectsTheStrayDateWhenConfigured() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { api.handle($0) }
        defer { server.stop() }
        let json = PullHarness.ticker.replacingOccurrences(of: #""keyField": "symbol""#, with: #""keyField": "symbol", "nonObjects": "fail""#)
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 12)
        #expect(pulled.summary?.failed == 1)
        #expect(pulled.failures.first?.key == "date")
        #expect(pulled.failures.first?.message.contains("string") == true)
    }

    @Test func recipeBadKeyEndsThePullWithTheAPIMessageAndNoKey() async throws {
        let api = try PullHarness.sampleAPI(keys: .init(food: "right-key"))
        let server = try PullHarness.server { api.handle($0) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.recipes, base: server.baseURL)
        let error = try await PullHarness.failure(of: RESTSource(config: config, environment: ["FOOD_KEY": "wrong-key-123"]))
        let sourceError = try #require(error as? SourceError)
        guard case .apiError(let url, let code, let message) = sourceError else {
            Issue.record("expected apiError, got \(sourceError)")
            return
        }
        #expect(code == "INFO-100")
        #expect(message?.hasPrefix("인증키가 유효하지 않습니다") == true)
        #expect(url.contains("/api/***/COOKRCP01/json/1/10"))
        #expect(!sourceError.description.contains("wrong-key-123"))
    }

    @Test func tickerStatusOtherThanSuccessEndsThePullWithTheAPIMessage() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { _ in HTTPResponseSpec(status: 200, body: api.tickerErrorBody) }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.ticker, base: server.baseURL)
        let error = try await PullHarness.failure(of: RESTSource(config: config, environment: [:]))
        let sourceError = try #require(error as? SourceError)
        #expect(sourceError == .apiError(url: server.baseURL + "/public/ticker/ALL_KRW", code: "5600", message: "Please try again"))
        #expect(sourceError.description.contains("Please try again"))
    }

    @Test func missingKakaoKeyFailsBeforeAnyRequest() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        defer { server.stop() }
        let config = try PullHarness.config(PullHarness.images, base: server.baseURL)
        #expect(throws: SourceError.missingEnvironment(variable: "KAKAO_KEY", source: "images", configPath: #"sources[0].headers.Authorization"#)) {
            _ = try RESTSource(config: config, environment: ["OTHER": "x"]).pull()
        }
        #expect(server.requestCount == 0)
    }

    @Test func fileBaseURLReadsPagesFromDiskUntilTheEmptyPage() async throws {
        let json = #"""
        {"name": "offline", "baseURL": "BASE",
         "list": {"path": "/perfume/products/list/page-{page}.json", "paginate": {"type": "page"}, "records": "products"},
         "key": "productId"}
        """#
        let config = try PullHarness.config(json, base: PullHarness.fixtures.absoluteString)
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: [:]))
        #expect(pulled.summary?.records == 150)
        #expect(pulled.summary?.pages == 4)
    }
}
