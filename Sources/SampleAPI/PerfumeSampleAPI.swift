import DocModel
import Synchronization

/// The bundled perfume sample API: a paged product list and a per-product detail call,
/// in the shape of the public API it stands for.
///
/// - `GET /products/list?currentPage=N[&pageSize=60]` → `{"products":[…],"totalProducts":150,"pageSize":60,"currentPage":N}`
/// - `GET /products/detail?productId=ID` → the detail object with an HTML `longDescription`
///
/// It is transport-free (`respond(method:target:)`), so `docsync demo` serves it on a
/// loopback socket and tests can count the calls. It can be changed while it serves
/// (`changeDescription`, `changeListRow`, `remove`) to show incremental syncs.
public final class PerfumeSampleAPI: Sendable {
    private struct State {
        var products: [JSONValue]              // list rows, in list order
        var details: [String: JSONValue]       // productId → detail
        var listCalls = 0
        var detailCalls = 0
    }

    private let state: Mutex<State>
    /// Rows per list page.
    public let pageSize: Int

    /// A fresh copy of the bundled data (150 products).
    public init(pageSize: Int = 60) {
        let data = try! JSONValue(parsing: PerfumeSampleData.json)
        let rows = data["pages"]!.arrayValue!.flatMap { $0["products"]?.arrayValue ?? [] }
        self.pageSize = pageSize
        self.state = Mutex(State(products: rows, details: data["details"]!.objectValue!))
    }

    /// The ids of all products, in list order.
    public var productIDs: [String] {
        state.withLock { $0.products.compactMap { $0["productId"]?.stringValue } }
    }

    /// Calls answered so far.
    public var callCounts: (list: Int, detail: Int) {
        state.withLock { ($0.listCalls, $0.detailCalls) }
    }

    /// Answers one request. `target` is the path with its query (`/products/list?currentPage=2`).
    public func respond(method: String, target: String) -> (status: Int, body: String) {
        guard method == "GET" else { return (405, #"{"error":"method not allowed"}"#) }
        let (path, query) = Self.split(target)
        switch path {
        case "/products/list":
            let page = Int(query["currentPage"] ?? "1") ?? 1
            let size = Int(query["pageSize"] ?? "") ?? pageSize
            return state.withLock { state in
                state.listCalls += 1
                let start = max(0, (page - 1) * size)
                let slice = start < state.products.count ? Array(state.products[start..<min(start + size, state.products.count)]) : []
                let body: JSONValue = [
                    "products": .array(slice), "totalProducts": .int(Int64(state.products.count)),
                    "pageSize": .int(Int64(size)), "currentPage": .int(Int64(page)),
                ]
                return (200, body.canonicalText)
            }
        case "/products/detail":
            return state.withLock { state in
                state.detailCalls += 1
                guard let id = query["productId"], let detail = state.details[id] else {
                    return (404, #"{"errorCode":404,"errorMessage":"product not found"}"#)
                }
                return (200, detail.canonicalText)
            }
        default:
            return (404, #"{"errorMessage":"no such endpoint"}"#)
        }
    }

    /// Replaces the HTML long description of one product (a detail-only change).
    public func changeDescription(of id: String, to html: String) {
        state.withLock { state in
            guard case .object(var detail)? = state.details[id] else { return }
            detail["longDescription"] = .string(html)
            state.details[id] = .object(detail)
        }
    }

    /// Sets one field of a product's list row (a list-row change, e.g. its rating).
    public func changeListRow(of id: String, field: String, to value: JSONValue) {
        state.withLock { state in
            guard let index = state.products.firstIndex(where: { $0["productId"]?.stringValue == id }),
                  case .object(var row) = state.products[index] else { return }
            row[field] = value
            state.products[index] = .object(row)
        }
    }

    /// Removes a product from the list and its detail.
    public func remove(_ id: String) {
        state.withLock { state in
            state.products.removeAll { $0["productId"]?.stringValue == id }
            state.details[id] = nil
        }
    }

    /// Empties the list (an outage that answers with no products).
    public func removeAll() {
        state.withLock { state in
            state.products.removeAll()
        }
    }

    static func split(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = String(parts[0]).removingPercentEncodingIfPossible
            query[name] = parts.count > 1 ? String(parts[1]).removingPercentEncodingIfPossible : ""
        }
        return (String(target[..<mark]), query)
    }
}

extension String {
    /// Decodes `%XX` escapes and `+`; leaves the text as it is when it is not valid.
    var removingPercentEncodingIfPossible: String {
        var bytes: [UInt8] = []
        var iterator = self.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

extension PerfumeSampleAPI {
    /// The docsync source for this API (list + detail, HTML description parsed into
    /// fragranceFamily / scentType / keyNotes), as it appears in `examples/perfume.json`,
    /// pointed at `baseURL`.
    public static func sourceConfig(baseURL: String, collection: String = "Perfume") -> String {
        """
        {
          "name": "perfume",
          "collection": "\(collection)",
          "baseURL": "\(baseURL)",
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
            {"split": {"fields": "keyNotes", "separators": [",", "&", "\\n"]}},
            {"convert": {"fields": "rating", "to": "double"}},
            {"convert": {"fields": "reviews", "to": "int"}},
            {"convert": {"fields": "currentSku.listPrice", "to": "double", "stripCharacters": "$,"}}
          ],
          "key": "productId",
          "http": {"concurrency": 8, "backoffSeconds": 0.01, "timeoutSeconds": 20}
        }
        """
    }
}
