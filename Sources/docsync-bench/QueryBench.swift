import DocModel
import DocStore
import Foundation

/// `docsync-bench query STORE RUNS CASES [SQL_OUT]`: the in-process time of each query of
/// scripts/bench-query, run through the store as `docsync query --format ndjson`
/// runs it (`DocumentStore.documentTexts(matching:)`: compile, step, rows as
/// text). CASES has one line per query: a name, a tab, then the docsync query
/// arguments separated by tabs (`--where`, `--order-by`, `--limit`). Prints a
/// name, the row count and the median milliseconds per line; the first run of
/// each query is a warm-up and is not counted. With SQL_OUT, the SQL each query
/// compiled to (values written in) goes there, one statement per line.
enum QueryBench {
    static func run(storePath: String, runs: Int, casesPath: String, compiledSQLPath: String?) async throws {
        let store = try DocumentStore(path: storePath, createIfMissing: false)
        let lines = try String(contentsOfFile: casesPath, encoding: .utf8).split(separator: "\n")
        var compiledSQL: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let name = fields.first else { continue }
            var query = Query(collection: "Perfume")
            var index = 1
            while index + 1 < fields.count {
                let value = fields[index + 1]
                switch fields[index] {
                case "--where": query.filters.append(try QueryExpressionParser.parseCondition(value))
                case "--order-by": query.orders.append(try QueryExpressionParser.parseOrder(value))
                case "--limit": query.limit = Int(value)
                default: throw BenchError("unknown query argument \(fields[index])")
                }
                index += 2
            }
            compiledSQL.append(try await Self.literalSQL(store.explain(query)))
            var rows = try await store.documentTexts(matching: query).count
            var times: [Double] = []
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                rows = try await store.documentTexts(matching: query).count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print("\(name)\t\(rows)\t\(String(format: "%.3f", times[times.count / 2]))")
        }
        if let compiledSQLPath {
            try compiledSQL.map { $0 + "\n" }.joined().write(toFile: compiledSQLPath, atomically: true, encoding: .utf8)
        }
    }

    /// The SQL docsync runs for a query, on one line, with its bound values
    /// written in as literals, for Benchmarks/raw_query.c to run the same SQL
    /// through the C API.
    static func literalSQL(_ explanation: QueryExplanation) -> String {
        var sql = explanation.sql
        // Highest number first, so ?1 does not replace the start of ?10.
        for (index, literal) in explanation.arguments.enumerated().reversed() {
            sql = sql.replacingOccurrences(of: "?\(index + 1)", with: literal)
        }
        return sql.replacingOccurrences(of: "\n", with: " ")
    }
}
