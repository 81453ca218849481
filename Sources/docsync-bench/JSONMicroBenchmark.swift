import DocModel
import Foundation

/// Micro-benchmarks of the JSON core, side by side with Foundation's JSONSerialization.
/// Run: swift run -c release docsync-bench json
enum JSONMicroBenchmark {
    static func makeRecord(_ i: Int) -> String {
        """
        {"productId":"P\(500000 + i)","brandName":"Brand \(i % 37)","displayName":"Eau de Parfum \(i)",\
        "rating":\(Double(i % 50) / 10.0 + 0.0137),"reviews":\(i * 7 % 1000),"price":\(i % 300).5,\
        "fragranceFamily":"Warm & Spicy","scentType":"Warm Spicy","keyNotes":["Teakwood","Vanilla","Amber \(i % 9)"],\
        "currentSku":{"skuId":"\(2500000 + i)","listPrice":"$\(i % 300).00","isLimitedEdition":\(i % 2 == 0)},\
        "description":"A luminous composition that opens bright and dries down soft. Refillable glass. \
        Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore \
        et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut \
        aliquip ex ea commodo consequat. \\u00e9\\u00e8 \(i)","image450":"https://www.example-cdn.test/productimages/sku/s\(2500000 + i)-main-zoom.jpg?imwidth=450"}
        """
    }

    static let repeats = Int(ProcessInfo.processInfo.environment["DOCSYNC_BENCH_REPEATS"] ?? "") ?? 5

    @discardableResult
    static func measure(_ label: String, bytes: Int, repeats: Int = repeats, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, seconds)
        }
        let mbps = Double(bytes) / best / 1e6
        print(String(format: "%-44@ %8.1f MB/s  (%.3f s)", label as NSString, mbps, best))
        return mbps
    }

    static func run(includeFoundation: Bool = true) throws {
        let count = Int(ProcessInfo.processInfo.environment["DOCSYNC_BENCH_RECORDS"] ?? "") ?? 20_000
        let records = (0..<count).map(makeRecord)
        let datas = records.map { Data($0.utf8) }
        let totalBytes = datas.reduce(0) { $0 + $1.count }
        print("records: \(count), average \(totalBytes / count) bytes")

        var parsed: [JSONValue] = []
        try measure("DocModel parse", bytes: totalBytes) {
            parsed = try records.map { try JSONValue(parsing: $0) }
        }
        if includeFoundation { try measure("JSONSerialization decode", bytes: totalBytes) {
            for data in datas { _ = try JSONSerialization.jsonObject(with: data) }
        } }
        measure("DocModel canonical write", bytes: totalBytes) {
            for value in parsed { _ = value.canonicalBytes }
        }
        if includeFoundation {
            let objects = try datas.map { try JSONSerialization.jsonObject(with: $0) }
            try measure("JSONSerialization encode (sorted keys)", bytes: totalBytes) {
                for object in objects { _ = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }
            }
        }
        try measure("DocModel parse + canonical text", bytes: totalBytes) {
            for record in records { _ = try JSONValue(parsing: record).canonicalText }
        }
    }
}
