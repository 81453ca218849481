import DocModel
import DocStore
import DocSync
import Foundation
import RESTSource
import SampleAPI
import Testing

/// Seeded random inputs for the parsers that read what docsync does not control:
/// API bodies (`JSONValue(parsing:)`), config files (`SyncConfig.decode`,
/// `SourceConfig.decode`), HTML descriptions (`HTMLText`), and the small
/// languages inside configs (field paths, templates, labelled sections) and the
/// `docsync query` expression parser (whose accepted conditions are also run).
///
/// Every case must end without a crash (a crash ends the test process) and
/// without a hang; parsers that accept an input must also round-trip it. CI
/// runs about 11,000 cases; `DOCSYNC_CAMPAIGN=1` (`scripts/campaign`) runs
/// over 100,000. Each shard has its own seed, named in any failure.
@Suite(.tags(.campaign), .timeLimit(.minutes(20)))
struct FuzzTests {
    static let casesPerShard = 1_000

    // MARK: - Corpora

    /// Valid JSON the parser sees in practice: sample API bodies, Firestore
    /// answers, the store's extended spellings, number edge cases.
    static let jsonCorpus: [[UInt8]] = {
        let api = PerfumeSampleAPI(pageSize: 2)
        var texts: [String] = [
            api.respond(method: "GET", target: "/products/list?currentPage=1").body,
            api.respond(method: "GET", target: "/products/detail?productId=P500000").body,
            api.respond(method: "GET", target: "/products/detail?productId=P500074").body,
            #"{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED"}}"#,
            #"{"writeResults":[{"updateTime":"2024-01-01T00:00:00.123456Z"},{}],"status":[{},{"code":3,"message":"bad"}]}"#,
            #"{"a":{"$double":"NaN"},"b":{"$timestamp":"2017-06-21T06:59:30.123456Z"},"c":{"$bytes":"AAEC"},"d":{"$reference":"Perfume/P1"},"e":{"$geopoint":{"latitude":1.5,"longitude":2.5}}}"#,
            #"[0,-0,1.0,1e2,-1.5e-300,9223372036854775807,-9223372036854775808,4.9e-324,1.7976931348623157e308]"#,
            #"{"s":"\u00e9\ud83d\ude00\n\t\"\\\/","t":true,"f":false,"n":null,"nested":[[[{"x":[]}]]]}"#,
            #"{"RESULT":{"CODE":"INFO-000","MSG":"ok"},"COOKRCP01":{"row":[{"RCP_SEQ":"1","RCP_NM":"x"}]}}"#,
            #"{"status":"0000","data":{"BTC":{"closing_price":"1"},"date":"1700000000000"}}"#,
            "  \n[ ]\r\n",
            "\"just a string\"",
            "12345",
        ]
        texts.append(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        return texts.map { Array($0.utf8) }
    }()

    static let configText: String = """
        {"$schema": "./schema/docsync.schema.json", "store": "docsync.sqlite",
         "target": {"projectId": "demo", "databaseId": "(default)", "emulatorHost": "127.0.0.1:8080",
                    "credentials": {"accessTokenEnv": "TOKEN"}},
         "sync": {"deletes": "propagate", "maxDeleteShare": 0.2, "conflicts": "skip", "batchSize": 5, "concurrency": 1},
         "sources": [\(PerfumeSampleAPI.sourceConfig(baseURL: "http://127.0.0.1:1")),
          {"name": "ticker", "collection": "Ticker", "baseURL": "https://api.example.com",
           "headers": {"X-Key": "${KEY}"},
           "list": {"path": "/public/ticker/ALL_KRW", "records": {"map": "data", "keyField": "symbol", "nonObjects": "skip"},
                    "success": {"field": "status", "equals": "0000", "message": "message"}},
           "shape": [{"convert": {"fields": ["closing_price"], "to": "double"}},
                     {"set": {"source": {"template": "bithumb-{symbol}"}}}, {"drop": ["date"]}],
           "key": {"template": "{symbol}"}, "incremental": {"field": "date", "param": "since", "initial": "0"},
           "http": {"retries": 2, "timeoutSeconds": 5, "requestsPerSecond": 10}},
          {"name": "recipes", "collection": "Recipe/kr/items", "baseURL": "http://x/${KEY}/json",
           "list": {"path": "/COOKRCP01/{start}/{end}", "paginate": {"type": "range", "size": 100, "totalItems": "COOKRCP01.total_count"},
                    "records": "COOKRCP01.row"},
           "key": {"hash": ["RCP_NM", "RCP_SEQ"]}},
          {"name": "local", "collection": "Local", "file": {"path": "items.ndjson", "format": "ndjson"}, "key": "id",
           "shape": [{"sections": {"from": "d", "labels": {"Key Notes": "notes"}}}, {"split": {"fields": "notes"}},
                     {"htmlToText": ["d"]}, {"pick": ["id", "notes"]}, {"rename": {"notes": "keyNotes"}}, {"trim": "id"}]}
         ]}
        """

    static let config: JSONValue = try! JSONValue(parsing: configText)

    static let htmlCorpus: [String] = {
        let data = try! JSONValue(parsing: PerfumeSampleAPI().respond(method: "GET", target: "/products/detail?productId=P500074").body)
        return [
            data["longDescription"]?.stringValue ?? "",
            "<b>Fragrance Family:</b> Warm &amp; Spicy<br><b>Scent Type:</b> Warm Spicy<br><b>Key Notes:</b> Teakwood",
            "<p><strong>Key Notes:</strong> Jasmine, Sandalwood</p><ul><li>One</li><li>Two &mdash; &#39;x&#39; &#x27;y&#x27;</li></ul>",
            "<script>var a = '<b>';</script><style>p{}</style><!-- comment <b> -->text &nbsp; more",
            "<a href=\"x?a=1&b=2\" title='it>s'>link</a> &unknown; &#; &#x; &",
            "a < b > c <<>> </> <1> <!doctype html>",
        ]
    }()

    // MARK: - JSON

    @Test(arguments: 0..<Campaign.size(ci: 4, full: 40))
    func jsonParserAcceptsOrRejectsEveryInputAndRoundTripsWhatItAccepts(shard: Int) {
        let seed = Campaign.seed &+ 0x1000 &+ UInt64(shard)
        var mutator = Mutator(seed: seed)
        var accepted = 0
        for index in 0..<Self.casesPerShard {
            let input = index % 5 == 4 ? mutator.randomBytes(maxLength: 256) : mutator.mutate(mutator.pick(Self.jsonCorpus), corpus: Self.jsonCorpus)
            do {
                let value = try JSONValue(parsing: input)
                accepted += 1
                let canonical = value.canonicalText
                let again = try JSONValue(parsing: canonical)
                #expect(again.canonicalText == canonical, "seed \(seed) case \(index): canonical text does not round-trip: \(canonical.prefix(200))")
                if let text = String(validating: input, as: UTF8.self) {
                    #expect((try? JSONValue(parsing: text))?.canonicalText == canonical, "seed \(seed) case \(index): String and byte parsing disagree")
                }
            } catch {
                #expect(error.offset >= 0 && error.offset <= input.count, "seed \(seed) case \(index): offset \(error.offset) outside the input")
                #expect(!error.reason.isEmpty)
            }
        }
        // Mutations keep some inputs valid; a parser that rejects everything is broken too.
        #expect(accepted > 0, "seed \(seed): no mutated input was accepted")
    }

    @Test func deeplyNestedInputIsRejectedWithoutExhaustingTheStack() {
        for depth in [513, 10_000, 1_000_000] {
            for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
                let text = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
                #expect(throws: JSONParseError.self, "depth \(depth)") { try JSONValue(parsing: text) }
                let unclosed = String(repeating: open, count: depth)
                #expect(throws: JSONParseError.self, "unclosed depth \(depth)") { try JSONValue(parsing: unclosed) }
            }
        }
    }

    // MARK: - Config

    @Test(arguments: 0..<Campaign.size(ci: 3, full: 30))
    func configDecoderReportsAPathForEveryMistakeItFinds(shard: Int) {
        let seed = Campaign.seed &+ 0x2000 &+ UInt64(shard)
        var mutator = Mutator(seed: seed)
        let corpus = [Array(Self.configText.utf8)]
        for index in 0..<Self.casesPerShard {
            let value: JSONValue
            if index % 4 == 3 {
                // Text-level mutation: most of these are not JSON any more.
                guard let parsed = try? JSONValue(parsing: mutator.mutate(corpus[0], corpus: corpus)) else { continue }
                value = parsed
            } else {
                value = Self.mutateValue(Self.config, using: &mutator, steps: mutator.int(1...3))
            }
            do {
                let config = try SyncConfig.decode(value)
                #expect(!config.sources.isEmpty || value["sources"]?.arrayValue?.isEmpty == true)
            } catch {
                #expect(!error.message.isEmpty, "seed \(seed) case \(index): empty message")
                #expect(!error.description.contains("Optional("), "seed \(seed) case \(index): \(error)")
            }
            // The source decoder alone, on each (possibly mutated) source.
            for (offset, source) in (value["sources"]?.arrayValue ?? []).enumerated() {
                do { _ = try SourceConfig.decode(source, at: "sources[\(offset)]") } catch {
                    #expect(!error.message.isEmpty, "seed \(seed) case \(index)")
                }
            }
        }
    }

    /// Replaces, removes or adds members somewhere inside `value`.
    static func mutateValue(_ value: JSONValue, using mutator: inout Mutator, steps: Int) -> JSONValue {
        var result = value
        for _ in 0..<steps { result = mutateOnce(result, using: &mutator, depth: 0) }
        return result
    }

    private static func mutateOnce(_ value: JSONValue, using mutator: inout Mutator, depth: Int) -> JSONValue {
        let descend = depth < 12 && mutator.int(0...3) != 0
        switch value {
        case .object(var members) where !members.isEmpty:
            let key = mutator.pick(members.keys.sorted())
            if descend {
                members[key] = mutateOnce(members[key]!, using: &mutator, depth: depth + 1)
            } else {
                switch mutator.int(0...3) {
                case 0: members.removeValue(forKey: key)
                case 1: members[key + mutator.pick(["s", "_", "X", ""])] = members.removeValue(forKey: key)
                case 2: members[mutator.pick(["unknown", "$schema", "", "a.b", "retries", key.uppercased()])] = randomValue(using: &mutator, depth: 0)
                default: members[key] = randomValue(using: &mutator, depth: 0)
                }
            }
            return .object(members)
        case .array(var elements) where !elements.isEmpty:
            let index = mutator.int(0...(elements.count - 1))
            if descend {
                elements[index] = mutateOnce(elements[index], using: &mutator, depth: depth + 1)
            } else {
                switch mutator.int(0...2) {
                case 0: elements.remove(at: index)
                case 1: elements.append(elements[index])
                default: elements[index] = randomValue(using: &mutator, depth: 0)
                }
            }
            return .array(elements)
        default:
            return randomValue(using: &mutator, depth: 0)
        }
    }

    static func randomValue(using mutator: inout Mutator, depth: Int) -> JSONValue {
        switch mutator.int(0...(depth > 2 ? 5 : 7)) {
        case 0: return .null
        case 1: return .bool(mutator.int(0...1) == 1)
        case 2: return .int(mutator.pick([0, -1, 1, 5, 500, 501, 65, Int64.max, Int64.min]))
        case 3: return .double(mutator.pick([0.5, -0.0, 1e300, .nan, .infinity, 0.2, 1.5]))
        case 4, 5:
            return .string(mutator.pick([
                "", "x", "page", "{page}", "{pageSize}", "${KEY}", "${", "{", "a..b", "`a`.b", "http://h/{x}", "file:///tmp/x",
                "https://", "products", "$", "json", "ndjson", "double", "int", "GET", "POST", "cursor", "nextLink", "offset",
                "range", "__name__", "Perfume/x", "a/b", String(repeating: "z", count: 2_000),
            ]))
        case 6: return .array((0..<mutator.int(0...3)).map { _ in randomValue(using: &mutator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<mutator.int(0...3) {
                members[mutator.pick(["path", "type", "field", "records", "map", "keyField", "equals", "x", "value", "template"])] =
                    randomValue(using: &mutator, depth: depth + 1)
            }
            return .object(members)
        }
    }

    // MARK: - Query expressions

    static let queryCorpus: [[UInt8]] = [
        #"brandName == "Dior""#, #"keyNotes array-contains "Jasmine" && rating in [4, 5]"#,
        "`units.traded` > 10 || price != null", #"launch >= timestamp("2020-01-01T00:00:00Z") and stock is not nan"#,
        #"(a == 1 or b == 2) and c == 3"#, #"tags array-contains-any ["x", 'y'] && n not-in [1, 2.5, -Infinity]"#,
        #"m == {k: [1, {z: null}]} || r == ref("Perfume/P1") || g == geopoint(1.5, -2) || b == bytes("AAE=")"#,
        "rating <= 4.5 && rating > -1e3 && ok == true && ko != false", "x is null or y is not null",
    ].map { Array($0.utf8) }

    @Test(arguments: 0..<Campaign.size(ci: 1, full: 10))
    func queryExpressionsParseOrFailWithAColumnAndParsedOnesRun(shard: Int) async throws {
        let seed = Campaign.seed &+ 0x7000 &+ UInt64(shard)
        var mutator = Mutator(seed: seed)
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath("Fuzz")
        try await store.put(["brandName": "Dior", "rating": 4.5, "keyNotes": ["Jasmine"], "m": ["k": [1]], "n": .null], at: collection.document("a"))
        try await store.put(["brandName": 7, "units.traded": 11, "tags": ["x"], "launch": ["$timestamp": "2021-01-01T00:00:00Z"]],
                            at: collection.document("b"))
        var accepted = 0
        for index in 0..<Self.casesPerShard {
            let text = String(decoding: mutator.mutate(mutator.pick(Self.queryCorpus), corpus: Self.queryCorpus), as: UTF8.self)
            do {
                let filter = try QueryExpressionParser.parseCondition(text)
                accepted += 1
                do {
                    _ = try await store.documents(matching: Query(collection: "Fuzz").whereFilter(filter))
                } catch let error as DocStoreError {
                    if case .sqlite = error { Issue.record("seed \(seed) case \(index): \(text) compiled to SQL that SQLite refused: \(error)") }
                } catch {
                    #expect(error is QueryError, "seed \(seed) case \(index): \(error)")
                }
            } catch {
                if case .syntax(let column, let message) = error {
                    #expect(column >= 1 && column <= text.count + 1, "seed \(seed) case \(index): column \(column) of \(text.count)")
                    #expect(!message.isEmpty)
                }
            }
            _ = try? QueryExpressionParser.parseOrder(text)
            _ = try? QueryExpressionParser.parseFieldList(text)
            _ = try? QueryExpressionParser.parseValueList(text)
        }
        #expect(accepted > 0, "seed \(seed): no mutated condition was accepted, so none was run")
    }

    // MARK: - HTML and other small languages

    @Test(arguments: 0..<Campaign.size(ci: 2, full: 20))
    func htmlToTextHandlesEveryInput(shard: Int) {
        let seed = Campaign.seed &+ 0x3000 &+ UInt64(shard)
        var mutator = Mutator(seed: seed)
        let corpus = Self.htmlCorpus.map { Array($0.utf8) }
        for index in 0..<Self.casesPerShard {
            let bytes: [UInt8]
            if index % 3 == 2 {
                // Fragments glued at random: tags, references, quotes, text.
                bytes = (0..<mutator.int(0...200)).flatMap { _ in Array(mutator.pick(Mutator.interestingTokens + ["x", " ", "Key Notes:", "\n"]).utf8) }
            } else {
                bytes = mutator.mutate(mutator.pick(corpus), corpus: corpus)
            }
            let html = String(decoding: bytes, as: UTF8.self)
            let text = HTMLText.plainText(html)
            #expect(!text.contains("<br>") || html.contains("&lt;") || html.contains("<br<") || html.contains("&#"), "seed \(seed) case \(index): a <br> tag survived")
            _ = HTMLText.decodeEntities(html)
            _ = TextSections.extract(text, labels: ["Fragrance Family", "Scent Type", "Key Notes", ""])
        }
    }

    @Test(arguments: 0..<Campaign.size(ci: 1, full: 10))
    func fieldPathsTemplatesAndValuesParseOrFailCleanly(shard: Int) {
        let seed = Campaign.seed &+ 0x4000 &+ UInt64(shard)
        var mutator = Mutator(seed: seed)
        let corpus = ["a.b.c", "`a.b`.c", "products", "currentSku.listPrice", "`x\\`y`.z", "{page}/{pageSize}?q=${KEY}",
                      "bithumb-{symbol}", "$19.99", "1,234.5", "2017-06-21T06:59:30.123456Z", "2017-06-21", "20170621"].map { Array($0.utf8) }
        for index in 0..<Self.casesPerShard {
            let text = String(decoding: mutator.mutate(mutator.pick(corpus), corpus: corpus), as: UTF8.self)
            if let path = try? FieldPath(parsing: text) {
                #expect((try? FieldPath(parsing: path.description)) == path, "seed \(seed) case \(index): \(path.description) does not parse back")
            }
            // Any segments at all print to text that parses back to them.
            let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if !segments.contains(where: \.isEmpty) {
                let built = FieldPath(segments)
                let parsed = (try? FieldPath(parsing: built.description))?.segments
                #expect(parsed == segments, "seed \(seed) case \(index): \(built.description)")
            }
            _ = try? Template(parsing: text)
            _ = ValueConversion.parseNumber(text)
            if let timestamp = Timestamp(lenient: text) {
                #expect(Timestamp(lenient: timestamp.description) == timestamp, "seed \(seed) case \(index): \(text)")
                #expect((try? Timestamp(parsing: timestamp.description)) == timestamp, "seed \(seed) case \(index): \(text)")
            }
            _ = try? DocumentID.validate(text)
        }
    }
}
