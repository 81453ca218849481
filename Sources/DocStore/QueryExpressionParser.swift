import DocModel

/// Reads the small expression language of `docsync query --where`.
///
/// ```
/// brandName == "Dior"
/// keyNotes array-contains "Jasmine" && rating in [4, 5]
/// `units.traded` > 10 || price != null
/// launch >= timestamp("2020-01-01T00:00:00Z") and stock is not nan
/// ```
///
/// Grammar (keywords are case-insensitive, `&&`/`and` binds tighter than `||`/`or`):
/// ```
/// condition  := or
/// or         := and (("||" | "or") and)*
/// and        := primary (("&&" | "and") primary)*
/// primary    := "(" or ")" | field op value | field "is" ["not"] ("null" | "nan")
/// op         := == != < <= > >= in not-in array-contains array-contains-any
/// value      := "string" | 'string' | integer | double | true | false | null
///             | NaN | Infinity | -Infinity | [value, …] | {key: value, …}
///             | timestamp("…Z") | bytes("base64") | ref("Coll/id") | geopoint(lat, lon)
/// field      := a field path: name(.name)*, names outside [A-Za-z_][A-Za-z0-9_]* in backticks
/// ```
/// Errors name the 1-based column (in characters) of the mistake.
public struct QueryExpressionParser {
    private let tokens: [Token]
    private var position = 0
    private let endColumn: Int

    private init(_ text: String) throws(QueryError) {
        var lexer = Lexer(text)
        tokens = try lexer.tokens()
        endColumn = text.count + 1
    }

    /// Parses one condition.
    /// - Throws: `QueryError.syntax` with the column of the mistake.
    public static func parseCondition(_ text: String) throws(QueryError) -> QueryFilter {
        var parser = try QueryExpressionParser(text)
        guard !parser.tokens.isEmpty else { throw .syntax(column: 1, message: "empty condition") }
        let filter = try parser.parseOr()
        if let extra = parser.peek {
            throw .syntax(column: extra.column, message: "expected '&&', '||' or the end of the condition, found \(extra.described)")
        }
        return filter
    }

    /// Parses `field` or `field:asc` / `field:desc` (an `--order-by` argument).
    /// - Throws: `QueryError.syntax`.
    public static func parseOrder(_ text: String) throws(QueryError) -> QueryOrder {
        var parser = try QueryExpressionParser(text)
        let field = try parser.parseField()
        var descending = false
        if let colon = parser.peek, colon.kind == .punctuation(":") {
            parser.position += 1
            guard let word = parser.peek, case .path(let path) = word.kind, path.segments.count == 1,
                  ["asc", "desc"].contains(path.segments[0].lowercased())
            else {
                throw .syntax(column: parser.peek?.column ?? parser.endColumn, message: "expected 'asc' or 'desc' after ':'")
            }
            descending = path.segments[0].lowercased() == "desc"
            parser.position += 1
        }
        if let extra = parser.peek {
            throw .syntax(column: extra.column, message: "expected ':asc', ':desc' or the end, found \(extra.described)")
        }
        return QueryOrder(field, descending: descending)
    }

    /// Parses `a, b.c, `x.y`` (a `--select` argument).
    /// - Throws: `QueryError.syntax`.
    public static func parseFieldList(_ text: String) throws(QueryError) -> [FieldPath] {
        var parser = try QueryExpressionParser(text)
        var fields = [try parser.parseField()]
        while let comma = parser.peek, comma.kind == .punctuation(",") {
            parser.position += 1
            fields.append(try parser.parseField())
        }
        if let extra = parser.peek { throw .syntax(column: extra.column, message: "expected ',' or the end, found \(extra.described)") }
        return fields
    }

    /// Parses `value, value, …` (a cursor argument such as `--start-after '"Dior", 5'`).
    /// - Throws: `QueryError.syntax`.
    public static func parseValueList(_ text: String) throws(QueryError) -> [JSONValue] {
        var parser = try QueryExpressionParser(text)
        var values = [try parser.parseValue()]
        while let comma = parser.peek, comma.kind == .punctuation(",") {
            parser.position += 1
            values.append(try parser.parseValue())
        }
        if let extra = parser.peek { throw .syntax(column: extra.column, message: "expected ',' or the end, found \(extra.described)") }
        return values
    }

    // MARK: - Conditions

    private var peek: Token? { position < tokens.count ? tokens[position] : nil }

    private func isKeyword(_ token: Token?, _ keyword: String) -> Bool {
        guard let token, case .path(let path) = token.kind, path.segments.count == 1, !token.isQuoted else { return false }
        return path.segments[0].lowercased() == keyword
    }

    private mutating func parseOr() throws(QueryError) -> QueryFilter {
        var terms = [try parseAnd()]
        while let token = peek, token.kind == .symbol("||") || isKeyword(token, "or") {
            position += 1
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(QueryError) -> QueryFilter {
        var terms = [try parsePrimary()]
        while let token = peek, token.kind == .symbol("&&") || isKeyword(token, "and") {
            position += 1
            terms.append(try parsePrimary())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parsePrimary() throws(QueryError) -> QueryFilter {
        if let open = peek, open.kind == .punctuation("(") {
            position += 1
            let inner = try parseOr()
            guard let close = peek, close.kind == .punctuation(")") else {
                throw .syntax(column: peek?.column ?? endColumn,
                              message: "expected ')' to close the '(' at column \(open.column), found \(describe(peek))")
            }
            position += 1
            return inner
        }
        let field = try parseField()
        guard let opToken = peek else {
            throw .syntax(column: endColumn, message: "expected an operator after \(field) (==, !=, <, <=, >, >=, in, not-in, array-contains, array-contains-any, is null)")
        }
        if isKeyword(opToken, "is") {
            position += 1
            var negated = false
            if isKeyword(peek, "not") {
                negated = true
                position += 1
            }
            if isKeyword(peek, "null") {
                position += 1
                return negated ? .isNotNull(field) : .isNull(field)
            }
            if isKeyword(peek, "nan") {
                position += 1
                return negated ? .isNotNaN(field) : .isNaN(field)
            }
            throw .syntax(column: peek?.column ?? endColumn, message: "expected 'null' or 'nan' after 'is', found \(describe(peek))")
        }
        let op: QueryOperator
        switch opToken.kind {
        case .symbol(let symbol):
            guard let known = QueryOperator(rawValue: symbol), !["&&", "||"].contains(symbol) else {
                throw .syntax(column: opToken.column, message: "expected an operator after \(field), found \(opToken.described)")
            }
            op = known
        case .keywordOperator(let known):
            op = known
        case _ where isKeyword(opToken, "in"):
            op = .in
        case _ where isKeyword(opToken, "not") && isKeyword(position + 1 < tokens.count ? tokens[position + 1] : nil, "in"):
            position += 1
            op = .notIn
        default:
            throw .syntax(column: opToken.column,
                          message: "expected an operator after \(field) (==, !=, <, <=, >, >=, in, not-in, array-contains, array-contains-any, is null), found \(opToken.described)")
        }
        position += 1
        let valueColumn = peek?.column ?? endColumn
        let value = try parseValue()
        if op.takesList, value.arrayValue == nil {
            throw .syntax(column: valueColumn, message: "'\(op.rawValue)' needs a list of values in brackets, like [1, 2]")
        }
        return .field(field, op, value)
    }

    private mutating func parseField() throws(QueryError) -> FieldPath {
        guard let token = peek, case .path(let path) = token.kind else {
            throw .syntax(column: peek?.column ?? endColumn, message: "expected a field name, found \(describe(peek))")
        }
        position += 1
        return path
    }

    private func describe(_ token: Token?) -> String { token?.described ?? "the end of the text" }

    // MARK: - Values

    private mutating func parseValue() throws(QueryError) -> JSONValue {
        guard let token = peek else {
            throw .syntax(column: endColumn, message: "expected a value (a string, number, true, false, null or [list]), found the end of the text")
        }
        position += 1
        switch token.kind {
        case .string(let string): return .string(string)
        case .integer(let integer): return .int(integer)
        case .double(let double): return .double(double)
        case .punctuation("["):
            var elements: [JSONValue] = []
            if let close = peek, close.kind == .punctuation("]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try parseValue())
                guard let next = peek else {
                    throw .syntax(column: endColumn, message: "expected ',' or ']' to close the '[' at column \(token.column)")
                }
                position += 1
                if next.kind == .punctuation("]") { return .array(elements) }
                guard next.kind == .punctuation(",") else {
                    throw .syntax(column: next.column, message: "expected ',' or ']' in the list, found \(next.described)")
                }
            }
        case .punctuation("{"):
            var members: [String: JSONValue] = [:]
            if let close = peek, close.kind == .punctuation("}") {
                position += 1
                return .object(members)
            }
            while true {
                guard let keyToken = peek else {
                    throw .syntax(column: endColumn, message: "expected a key or '}' to close the '{' at column \(token.column)")
                }
                let key: String
                switch keyToken.kind {
                case .string(let text): key = text
                case .path(let path) where path.segments.count == 1: key = path.segments[0]
                default: throw .syntax(column: keyToken.column, message: "expected a key (a name or a string), found \(keyToken.described)")
                }
                position += 1
                guard let colon = peek, colon.kind == .punctuation(":") else {
                    throw .syntax(column: peek?.column ?? endColumn, message: "expected ':' after the key \"\(key)\"")
                }
                position += 1
                guard members[key] == nil else { throw .syntax(column: keyToken.column, message: "duplicate key \"\(key)\"") }
                members[key] = try parseValue()
                guard let next = peek else {
                    throw .syntax(column: endColumn, message: "expected ',' or '}' to close the '{' at column \(token.column)")
                }
                position += 1
                if next.kind == .punctuation("}") { return .object(members) }
                guard next.kind == .punctuation(",") else {
                    throw .syntax(column: next.column, message: "expected ',' or '}' in the map, found \(next.described)")
                }
            }
        case .path(let path) where path.segments.count == 1 && !token.isQuoted:
            let word = path.segments[0]
            switch word {
            case "true": return true
            case "false": return false
            case "null": return .null
            case "NaN", "nan": return .double(.nan)
            case "Infinity": return .double(.infinity)
            default:
                if let open = peek, open.kind == .punctuation("(") {
                    return try parseTypedValue(word, at: token)
                }
                throw .syntax(column: token.column, message: "unexpected \(token.described): strings need quotes, like \"\(word)\"")
            }
        default:
            throw .syntax(column: token.column, message: "expected a value (a string, number, true, false, null or [list]), found \(token.described)")
        }
    }

    /// `timestamp("…")`, `bytes("…")`, `ref("…")`, `geopoint(lat, lon)`: the extended spelling.
    private mutating func parseTypedValue(_ name: String, at token: Token) throws(QueryError) -> JSONValue {
        position += 1  // (
        var arguments: [(JSONValue, Int)] = []
        if let close = peek, close.kind == .punctuation(")") {
            position += 1
        } else {
            while true {
                let column = peek?.column ?? endColumn
                arguments.append((try parseValue(), column))
                guard let next = peek else {
                    throw .syntax(column: endColumn, message: "expected ')' to close \(name)(")
                }
                position += 1
                if next.kind == .punctuation(")") { break }
                guard next.kind == .punctuation(",") else {
                    throw .syntax(column: next.column, message: "expected ',' or ')' in \(name)(…), found \(next.described)")
                }
            }
        }
        func text() throws(QueryError) -> String {
            guard arguments.count == 1, case .string(let text) = arguments[0].0 else {
                throw .syntax(column: arguments.first?.1 ?? token.column, message: "\(name)(…) takes one string")
            }
            return text
        }
        switch name.lowercased() {
        case "timestamp": return [ExtendedValue.timestamp: .string(try text())]
        case "bytes": return [ExtendedValue.bytes: .string(try text())]
        case "ref", "reference": return [ExtendedValue.reference: .string(try text())]
        case "geopoint":
            guard arguments.count == 2, let latitude = arguments[0].0.numberValue, let longitude = arguments[1].0.numberValue else {
                throw .syntax(column: arguments.first?.1 ?? token.column, message: "geopoint(…) takes two numbers: latitude, longitude")
            }
            return [ExtendedValue.geopoint: ["latitude": .double(latitude), "longitude": .double(longitude)]]
        default:
            throw .syntax(column: token.column, message: "unknown value type \(name)(…); known: timestamp, bytes, ref, geopoint")
        }
    }
}
