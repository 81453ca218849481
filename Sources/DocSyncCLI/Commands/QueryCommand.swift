import DocModel
import DocStore

/// `docsync query COLLECTION --where EXPR …`: Firestore-style queries over the store.
struct QueryCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "query",
        summary: "Query a collection of the store with Firestore's query semantics.",
        discussion: """
            Each --where condition compares a field with a value, as in             brandName == "Dior", price >= 10.5, rating in [4, 5], keyNotes             array-contains "Jasmine", price != null or score is nan; combine them             with && and || and parentheses. Every --where must hold.

            Values are "strings", integers, doubles, true, false, null, NaN,             [lists], {maps}, timestamp("…Z"), bytes("base64"), ref("Coll/id") and             geopoint(lat, lon). Field names other than letters, digits and _ go             in backticks: `units.traded` > 10.

            As in Firestore, a comparison matches only values of the same type             (integers and doubles compare as numbers), a missing field never             matches, and results are ordered by the --order-by fields, then any             inequality field, then the document id. See docs/queries.md.
            """,
        arguments: [ArgumentSpec(name: "collection", help: "The collection to query, such as Perfume.")],
        options: [
            .value("where", short: "w", valueName: "condition", help: "A condition documents must meet (repeatable)."),
            .value("order-by", valueName: "field[:desc]", help: "Order by a field, ascending unless ':desc' (repeatable)."),
            .value("limit", valueName: "n", help: "Return at most n documents."),
            .value("limit-to-last", valueName: "n", help: "Return the last n documents of the order (needs --order-by)."),
            .value("offset", valueName: "n", help: "Skip n documents.", defaultValue: "0"),
            .value("start-at", valueName: "values", help: "Start at these order-by values (comma-separated)."),
            .value("start-after", valueName: "values", help: "Start after these order-by values."),
            .value("end-at", valueName: "values", help: "End at these order-by values."),
            .value("end-before", valueName: "values", help: "End before these order-by values."),
            .value("select", valueName: "fields", help: "Return only these fields (comma-separated)."),
            .value("format", short: "f", valueName: "format", help: "Output format.", defaultValue: "table",
                   allowedValues: QueryResultRenderer.Format.allCases.map(\.rawValue)),
            .flag("explain", help: "Print the SQL and SQLite's query plan instead of the results."),
            .storeConfig, .storeOverride,
        ],
        command: QueryCommand.self
    )

    var collection: CollectionPath
    var conditions: [String]
    var orders: [String]
    var limit: Int?
    var limitsToLast: Bool
    var offset: Int
    /// (option name, text) of the cursor options given.
    var cursors: [Cursor]
    var selection: String?
    var format: QueryResultRenderer.Format
    var explain: Bool
    var store: StoreLocation

    struct Cursor: Equatable, Sendable {
        var option: String
        var text: String
    }

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = try arguments.collectionPath("collection")
        conditions = arguments.values["where"] ?? []
        orders = arguments.values["order-by"] ?? []
        func count(_ name: String) throws(UsageError) -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw arguments.error(.invalidArgument("--\(name) '\(text)'", reason: "expected a whole number, 0 or more"))
            }
            return value
        }
        let first = try count("limit")
        let last = try count("limit-to-last")
        if first != nil, last != nil {
            throw arguments.error(.invalidArgument("--limit-to-last", reason: "use either --limit or --limit-to-last"))
        }
        limit = first ?? last
        limitsToLast = last != nil
        offset = try count("offset") ?? 0
        cursors = ["start-at", "start-after", "end-at", "end-before"].compactMap { name in
            arguments.value(name).map { Cursor(option: name, text: $0) }
        }
        if cursors.filter({ $0.option.hasPrefix("start") }).count > 1 || cursors.filter({ $0.option.hasPrefix("end") }).count > 1 {
            throw arguments.error(.invalidArgument("cursor", reason: "give at most one of --start-at/--start-after and one of --end-at/--end-before"))
        }
        selection = arguments.value("select")
        format = QueryResultRenderer.Format(rawValue: arguments.value("format") ?? "table") ?? .table
        explain = arguments.flag("explain")
        store = StoreLocation(arguments)
    }

    /// Builds the query; a mistake in an expression names the option and the column.
    func makeQuery() throws(UserFacingError) -> Query {
        func read<T>(_ option: String, _ text: String, _ parse: (String) throws(QueryError) -> T) throws(UserFacingError) -> T {
            do {
                return try parse(text)
            } catch {
                throw Self.expressionError(option: option, text: text, error)
            }
        }
        var query = Query(collection: collection.description)
        for condition in conditions {
            query.filters.append(try read("--where", condition, QueryExpressionParser.parseCondition))
        }
        for order in orders {
            query.orders.append(try read("--order-by", order, QueryExpressionParser.parseOrder))
        }
        query.limit = limit
        query.limitsToLast = limitsToLast
        query.offset = offset
        for cursor in cursors {
            let values = try read("--\(cursor.option)", cursor.text, QueryExpressionParser.parseValueList)
            let inclusive = cursor.option.hasSuffix("-at")
            if cursor.option.hasPrefix("start") {
                query.start = QueryCursor(values: values, inclusive: inclusive)
            } else {
                query.end = QueryCursor(values: values, inclusive: inclusive)
            }
        }
        if let selection {
            query.selection = try read("--select", selection, QueryExpressionParser.parseFieldList)
        }
        return query
    }

    /// `error: in --where at column 7: unexpected '>>'`, then the text with a caret.
    static func expressionError(option: String, text: String, _ error: QueryError) -> UserFacingError {
        guard case .syntax(let column, let message) = error else {
            return UserFacingError(message: "in \(option): \(error.description)", hint: error.hint, status: .usage)
        }
        let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
        return UserFacingError(message: "in \(option) at column \(column): \(message)\n  \(text)\n  \(caret)",
                               hint: "see 'docsync query --help' for the expression language", status: .usage)
    }

    /// An empty answer to a filtered query: a filter that cannot match what the
    /// collection holds is said, not answered with silence.
    private func warnAboutFilters(of query: Query, in store: DocumentStore, environment: Environment) async throws {
        guard !query.filters.isEmpty else { return }
        let sample = try await store.fieldSample(in: query.collection, paths: QueryDiagnostics.comparedPaths(in: query),
                                                 limit: QueryDiagnostics.sampleSize)
        for warning in QueryDiagnostics.warnings(for: query, sample: sample, collection: query.collection) {
            environment.stderr.writeLine("warning: " + warning)
        }
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let query = try QueryDiagnostics.normalizingTimestamps(try makeQuery())
        let store = try await self.store.open(in: environment)
        do {
            if explain {
                environment.stdout.write(try await store.explain(query).text + "\n")
                return .success
            }
            if format == .ndjson || format == .json {
                // Stored text is canonical already: written out without parsing.
                let texts = try await store.documentTexts(matching: query)
                if texts.isEmpty { try await warnAboutFilters(of: query, in: store, environment: environment) }
                environment.stdout.writeBytes(QueryResultRenderer.render(texts, asArray: format == .json))
                return .success
            }
            let documents = try await store.documents(matching: query)
            if documents.isEmpty { try await warnAboutFilters(of: query, in: store, environment: environment) }
            var renderer = QueryResultRenderer(format: format, selection: query.selection)
            renderer.width = TerminalSize.columns(variables: environment.variables, isTerminal: environment.stdout.isTerminal)
            environment.stdout.write(renderer.render(documents))
            return .success
        } catch let error as QueryError {
            throw UserFacingError(message: error.description, hint: error.hint, status: .usage)
        }
    }
}
