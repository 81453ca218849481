import DocModel
import Foundation
import RESTSource
import TestSupport

/// Shared helpers for RESTSource tests: fixtures, sample configs, stream collection.
enum PullHarness {
    static var fixtures: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    }

    static func sampleAPI(keys: SampleAPIs.Keys = SampleAPIs.Keys()) throws -> SampleAPIs {
        try SampleAPIs(fixtures: fixtures, keys: keys)
    }

    /// A loopback server that records every request before `handler` answers it.
    static func server(
        recording log: LoopbackLock<[HTTPRequestRecord]> = LoopbackLock([]),
        _ handler: @escaping @Sendable (HTTPRequestRecord) async -> HTTPResponseSpec
    ) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            log.withLock { $0.append(request) }
            return await handler(request)
        }
    }

    static func config(_ json: String, base: String) throws -> SourceConfig {
        let text = json.replacingOccurrences(of: "BASE", with: base)
        return try SourceConfig.decode(try JSONValue(parsing: text), at: "sources[0]")
    }

    struct Pulled {
        var records: [SourceRecord] = []
        var failures: [RecordError] = []
        var summary: PullSummary?
        var byKey: [String: JSONValue] { Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0.document) }) }
    }

    static func collect(_ source: RESTSource) async throws -> Pulled {
        var pulled = Pulled()
        for try await event in try source.pull() {
            switch event {
            case .record(let record): pulled.records.append(record)
            case .failed(let error): pulled.failures.append(error)
            case .finished(let summary): pulled.summary = summary
            }
        }
        return pulled
    }

    /// The error a pull stream ends with (nil if it completes).
    static func failure(of source: RESTSource) async throws -> Error? {
        do {
            _ = try await collect(source)
            return nil
        } catch {
            return error
        }
    }

    static let perfume = #"""
    {
      "name": "perfume",
      "baseURL": "BASE",
      "headers": {"X-RapidAPI-Key": "${RAPIDAPI_KEY}", "X-RapidAPI-Host": "sephora.p.rapidapi.com"},
      "list": {
        "path": "/products/list",
        "query": {"categoryId": "cat60148", "pageSize": "{pageSize}", "currentPage": "{page}"},
        "paginate": {"type": "page", "pageSize": 60, "totalItems": "totalProducts"},
        "records": "products"
      },
      "detail": {
        "path": "/products/detail",
        "query": {"productId": "{productId}", "preferedSku": "{currentSku.skuId}"},
        "fields": ["longDescription", "quickLookDescription"],
        "rename": {"quickLookDescription": "summary"}
      },
      "shape": [
        {"htmlToText": "longDescription"},
        {"sections": {"from": "longDescription",
                      "labels": {"Fragrance Family": "fragranceFamily", "Scent Type": "scentType", "Key Notes": "keyNotes"}}},
        {"split": {"fields": "keyNotes", "separators": [",", "&", "\n"]}},
        {"convert": {"fields": "rating", "to": "double"}},
        {"convert": {"fields": "reviews", "to": "int"}},
        {"convert": {"fields": "currentSku.listPrice", "to": "double", "stripCharacters": "$,"}},
        {"set": {"source": {"value": "sephora"}}}
      ],
      "key": "productId",
      "http": {"concurrency": 8, "backoffSeconds": 0.01, "timeoutSeconds": 20}
    }
    """#

    static let recipes = #"""
    {
      "name": "recipes",
      "baseURL": "BASE",
      "list": {
        "path": "/api/${FOOD_KEY}/COOKRCP01/json/{start}/{end}/RCP_PARTS_DTLS=돼지고기",
        "paginate": {"type": "range", "size": 10, "totalItems": "COOKRCP01.total_count"},
        "records": "COOKRCP01.row",
        "success": {"field": ["COOKRCP01.RESULT.CODE", "RESULT.CODE"], "in": ["INFO-000"], "noData": "INFO-200",
                    "message": ["COOKRCP01.RESULT.MSG", "RESULT.MSG"]}
      },
      "shape": [
        {"convert": {"fields": ["INFO_ENG", "INFO_CAR", "INFO_PRO", "INFO_WGT"], "to": "number"}},
        {"split": {"fields": "RCP_PARTS_DTLS", "separators": [","]}}
      ],
      "key": "RCP_SEQ",
      "http": {"backoffSeconds": 0.01}
    }
    """#

    static let images = #"""
    {
      "name": "images",
      "baseURL": "BASE",
      "headers": {"Authorization": "KakaoAK ${KAKAO_KEY}"},
      "list": {
        "path": "/v2/search/image",
        "query": {"query": "고양이 사진", "page": "{page}", "size": "{pageSize}"},
        "paginate": {"type": "page", "pageSize": 30, "isEnd": "meta.is_end"},
        "records": "documents"
      },
      "shape": [{"convert": {"fields": "datetime", "to": "timestamp"}}],
      "key": {"hash": ["image_url", "doc_url"]},
      "http": {"backoffSeconds": 0.01}
    }
    """#

    static let ticker = #"""
    {
      "name": "ticker",
      "baseURL": "BASE",
      "list": {
        "path": "/public/ticker/ALL_KRW",
        "records": {"map": "data", "keyField": "symbol"},
        "success": {"field": "status", "equals": "0000", "message": "message"}
      },
      "shape": [
        {"convert": {"fields": ["opening_price", "closing_price", "min_price", "max_price", "units_traded",
                                "acc_trade_value", "prev_closing_price", "units_traded_24H", "acc_trade_value_24H",
                                "fluctate_24H", "fluctate_rate_24H"], "to": "number"}}
      ],
      "key": "symbol",
      "http": {"backoffSeconds": 0.01}
    }
    """#
}
