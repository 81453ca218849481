/// What `docsync query --explain` shows: the SQL a query compiles to, its
/// bound values, and SQLite's `EXPLAIN QUERY PLAN`.
public struct QueryExplanation: Sendable, Hashable {
    public var sql: String
    /// The bound values, `?1` first, as SQL literals (blobs as `x'…'`).
    public var arguments: [String]
    /// The plan as a tree, one line per step (`SEARCH documents USING INDEX …`).
    public var plan: [String]

    public init(sql: String, arguments: [String], plan: [String]) {
        self.sql = sql
        self.arguments = arguments
        self.plan = plan
    }

    /// True when some step of the plan reads through the named index.
    public func uses(index name: String) -> Bool {
        plan.contains { line in
            ["USING INDEX \(name)", "USING COVERING INDEX \(name)"].contains { line.contains($0 + " ") || line.hasSuffix($0) }
        }
    }

    /// The explanation as text: SQL, arguments, plan.
    public var text: String {
        var lines = ["SQL:", sql, "", "ARGUMENTS:"]
        lines += arguments.enumerated().map { "  ?\($0.offset + 1) = \($0.element)" }
        lines += ["", "QUERY PLAN:"] + plan
        return lines.joined(separator: "\n")
    }
}
