import DocModel
import DocStore
import Testing

@Suite(.timeLimit(.minutes(3))) struct QueryExpressionParserTests {
    func parse(_ text: String) throws -> QueryFilter { try QueryExpressionParser.parseCondition(text) }
    func field(_ text: String) -> FieldPath { try! FieldPath(parsing: text) }

    @Test(arguments: [
        (#"brandName == "Dior""#, QueryFilter.field(FieldPath(["brandName"]), .equal, "Dior")),
        (#"keyNotes array-contains "Jasmine""#, .field(FieldPath(["keyNotes"]), .arrayContains, "Jasmine")),
        (#"keyNotes array-contains-any ["Rose", 'Iris']"#, .field(FieldPath(["keyNotes"]), .arrayContainsAny, ["Rose", "Iris"])),
        ("rating in [4, 5]", .field(FieldPath(["rating"]), .in, [4, 5])),
        ("rating not-in [4, 5.5]", .field(FieldPath(["rating"]), .notIn, [4, 5.5])),
        ("rating NOT IN [1]", .field(FieldPath(["rating"]), .notIn, [1])),
        ("`units.traded` > 10", .field(FieldPath(["units.traded"]), .greaterThan, 10)),
        ("meta.total <= -2.5e3", .field(FieldPath(["meta", "total"]), .lessThanOrEqual, -2500.0)),
        ("price != null", .field(FieldPath(["price"]), .notEqual, nil)),
        ("price >= 1.0", .field(FieldPath(["price"]), .greaterThanOrEqual, .double(1))),
        ("price < 1", .field(FieldPath(["price"]), .lessThan, .int(1))),
        ("flag == true", .field(FieldPath(["flag"]), .equal, true)),
        ("score is null", .isNull(FieldPath(["score"]))),
        ("score is not NaN", .isNotNaN(FieldPath(["score"]))),
        ("score IS NOT NULL", .isNotNull(FieldPath(["score"]))),
        ("x == -Infinity", .field(FieldPath(["x"]), .equal, .double(-.infinity))),
        (#"a.`b\`c`.d == {k: [1, {"z": null}]}"#, .field(FieldPath(["a", "b`c", "d"]), .equal, ["k": [1, ["z": nil]]])),
        (#"launch > timestamp("2020-01-01T00:00:00Z")"#, .field(FieldPath(["launch"]), .greaterThan, ["$timestamp": "2020-01-01T00:00:00Z"])),
        (#"owner == ref("Users/u1")"#, .field(FieldPath(["owner"]), .equal, ["$reference": "Users/u1"])),
        ("where == geopoint(1.5, -2)", .field(FieldPath(["where"]), .equal, ["$geopoint": ["latitude": 1.5, "longitude": -2.0]])),
        (#"s == "tab\tquote\" \u00e9 \ud83d\ude00""#, .field(FieldPath(["s"]), .equal, "tab\tquote\" é 😀")),
    ])
    func parsesOneCondition(text: String, expected: QueryFilter) throws {
        #expect(try parse(text) == expected)
    }

    @Test func andBindsTighterThanOr() throws {
        let a = QueryFilter.field(FieldPath(["a"]), .equal, 1)
        let b = QueryFilter.field(FieldPath(["b"]), .equal, 2)
        let c = QueryFilter.field(FieldPath(["c"]), .equal, 3)
        #expect(try parse("a == 1 || b == 2 && c == 3") == .or([a, .and([b, c])]))
        #expect(try parse("(a == 1 or b == 2) and c == 3") == .and([.or([a, b]), c]))
    }

    @Test func keywordsAsFieldNamesStillWork() throws {
        #expect(try parse("in in [1]") == .field(FieldPath(["in"]), .in, [1]))
        #expect(try parse("`and` == 1") == .field(FieldPath(["and"]), .equal, 1))
    }

    @Test(arguments: [
        ("price >> 5", 7, "unexpected '>>'"),
        ("price = 5", 7, "unexpected '=' (compare with '==')"),
        ("price", 6, "expected an operator after price"),
        ("price == ", 10, "expected a value"),
        ("brandName == Dior", 14, "unexpected 'Dior': strings need quotes, like \"Dior\""),
        (#"name == "Dior"#, 9, "unterminated string"),
        ("rating in 4", 11, "'in' needs a list of values in brackets, like [1, 2]"),
        ("rating in [4, 5", 16, "expected ',' or ']' to close the '[' at column 11"),
        ("rating in [4 5]", 14, "expected ',' or ']' in the list, found '5'"),
        ("(a == 1", 8, "expected ')' to close the '(' at column 1"),
        ("a == 1 b == 2", 8, "expected '&&', '||' or the end of the condition, found 'b'"),
        ("a == 99999999999999999999", 6, "the integer 99999999999999999999 does not fit in 64 bits"),
        ("a.1b == 1", 3, "a name starting with a digit needs backticks"),
        ("a-b == 1", 2, "unexpected '-' in a field name"),
        ("`open == 1", 1, "unterminated backtick"),
        ("a is maybe", 6, "expected 'null' or 'nan' after 'is'"),
        ("== 1", 1, "expected a field name, found '=='"),
        ("a == 1 &&", 10, "expected a field name, found the end of the text"),
        ("a == 12abc", 8, "unexpected 'a' after the number 12"),
        (#"a == "\q""#, 7, "unknown escape '\\q'"),
        ("a == nope(1)", 6, "unknown value type nope(…)"),
        ("a == #", 6, "unexpected '#'"),
        ("", 1, "empty condition"),
        ("a == {b: 1, b: 2}", 13, "duplicate key \"b\""),
    ])
    func malformedInputNamesTheColumn(text: String, column: Int, message: String) {
        do {
            _ = try parse(text)
            Issue.record("\(text) parsed")
        } catch let error as QueryError {
            guard case .syntax(let actualColumn, let actualMessage) = error else {
                Issue.record("not a syntax error: \(error)")
                return
            }
            #expect(actualColumn == column, "\(text): \(actualMessage)")
            #expect(actualMessage.hasPrefix(message) || actualMessage.contains(message), "\(text): \(actualMessage)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func syntaxErrorDescriptionStartsWithTheColumn() {
        #expect(throws: QueryError.syntax(column: 7, message: "unexpected '>>'")) { try parse("price >> 5") }
        #expect(QueryError.syntax(column: 7, message: "unexpected '>>'").description == "at column 7: unexpected '>>'")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(throws: QueryError.syntax(column: 12, message: "unexpected '>>'")) { try parse(#"`é` == "ü" >> 1"#) }
    }

    @Test func ordersAndFieldListsAndValueLists() throws {
        #expect(try QueryExpressionParser.parseOrder("price") == QueryOrder(FieldPath(["price"])))
        #expect(try QueryExpressionParser.parseOrder("price:desc") == QueryOrder(FieldPath(["price"]), descending: true))
        #expect(try QueryExpressionParser.parseOrder("`a:b`:ASC") == QueryOrder(FieldPath(["a:b"])))
        #expect(throws: QueryError.syntax(column: 7, message: "expected 'asc' or 'desc' after ':'")) {
            try QueryExpressionParser.parseOrder("price:down")
        }
        #expect(try QueryExpressionParser.parseFieldList("a, b.c,`x,y`") == [FieldPath(["a"]), FieldPath(["b", "c"]), FieldPath(["x,y"])])
        #expect(try QueryExpressionParser.parseValueList(#""Dior", 5, null"#) == ["Dior", 5, nil])
    }
}
