import DocModel
import RESTSource
import Testing

/// HTML to text, labelled sections, split, convert and keys, on values.
@Suite(.timeLimit(.minutes(3))) struct ShapingTests {
    @Test(arguments: [
        ("<b>Key Notes:</b> Rose &amp; Oud<br>Musk", "Key Notes: Rose & Oud\nMusk"),
        ("<p>One</p><p>Two</p>", "One\nTwo"),
        ("A<br><br><br>B", "A\n\nB"),
        ("<ul><li>Pink Pepper</li><li>Teakwood</li></ul>", "Pink Pepper\nTeakwood"),
        ("It&#39;s &quot;bold&quot; &mdash; and&nbsp;soft &#x2014; &eacute;t&eacute;", "It's \"bold\" \u{2014} and soft \u{2014} \u{E9}t\u{E9}"),
        ("\n  <b>Family:</b>   Fresh <br/>\nGreen\t tea ", "Family: Fresh\nGreen tea"),
        ("a &unknown; b & c &amp d", "a &unknown; b & c &amp d"),
        ("x<script>var a = '<p>';</script>y<!-- <br> -->z", "xyz"),
        ("3 < 4 and 5 > 2", "3 < 4 and 5 > 2"),
        ("<a href=\"x>y\">link</a> text", "link text"),
    ])
    func htmlBecomesPlainText(html: String, text: String) {
        #expect(HTMLText.plainText(html) == text)
    }

    private let labels = ["Fragrance Family", "Scent Type", "Key Notes"]

    @Test func sectionsEndAtTheNextKnownOrUnknownLabel() {
        let text = "Style: Sensual. Elegant.\nFragrance Family: Gourmand\nScent Type: Gourmand Caramel\nKey Notes: Oud\nWhat Else You Need to Know: Vegan."
        #expect(TextSections.extract(text, labels: labels) == [
            "Fragrance Family": "Gourmand", "Scent Type": "Gourmand Caramel", "Key Notes": "Oud",
        ])
    }

    @Test func sectionsMatchLabelsCaseInsensitivelyAndOnOneLine() {
        #expect(TextSections.extract("FRAGRANCE FAMILY: Fresh SCENT TYPE: Citrus", labels: labels) == [
            "Fragrance Family": "Fresh", "Scent Type": "Citrus",
        ])
    }

    @Test func missingSectionsAreAbsentAndMultiLineSectionsKeepTheirLines() {
        let text = "Key Notes:\nPink Pepper\nTeakwood\nFragrance Description: Crisp and green."
        #expect(TextSections.extract(text, labels: labels) == ["Key Notes": "Pink Pepper\nTeakwood"])
        #expect(TextSections.extract("A gift set with a lotion.", labels: labels).isEmpty)
        #expect(TextSections.extract("Scent Type:\nKey Notes: Musk", labels: labels) == ["Key Notes": "Musk"])
    }

    @Test func splitTrimsStripsAndDropsEmpties() {
        let step = SplitStep(fields: [], separators: [",", "&", "\n"], trim: true, dropEmpty: true, stripTrailingPunctuation: true)
        #expect(Shaper.split(" Iris, Tonka Bean,, Amber. ", step) == ["Iris", "Tonka Bean", "Amber"])
        #expect(Shaper.split("Sandalwood & Rose\nOud;", step) == ["Sandalwood", "Rose", "Oud"])
        let raw = SplitStep(fields: [], separators: ["|"], trim: false, dropEmpty: false, stripTrailingPunctuation: false)
        #expect(Shaper.split("a |b.||", raw) == ["a ", "b.", "", ""])
    }

    static let conversions: [(input: JSONValue, target: ConvertStep.Target, output: JSONValue)] = [
        (input: JSONValue.string("26460101"), target: ConvertStep.Target.number, output: JSONValue.int(26_460_101)),
        (.string("-7.21"), .number, .double(-7.21)),
        (.string("1e3"), .number, .double(1000)),
        (.string("3.0"), .int, .int(3)),
        (.string("42"), .double, .double(42)),
        (.int(5), .string, .string("5")),
        (.string("yes"), .bool, .bool(true)),
        (.string("2017-01-10T15:59:30.000+09:00"), .timestamp, ["$timestamp": "2017-01-10T06:59:30Z"]),
        (.string("2024-02-29T23:59:59.1234567Z"), .timestamp, ["$timestamp": "2024-02-29T23:59:59.123456Z"]),
        (.string("2024-03-01"), .timestamp, ["$timestamp": "2024-03-01T00:00:00Z"]),
        (.string("1642841146417"), .epochMillis, ["$timestamp": "2022-01-22T08:45:46.417Z"]),
        (.int(0), .epochSeconds, ["$timestamp": "1970-01-01T00:00:00Z"]),
    ]

    @Test(arguments: conversions)
    func convertProducesTheTargetType(example: (input: JSONValue, target: ConvertStep.Target, output: JSONValue)) throws {
        #expect(try ValueConversion.convert(example.input, to: example.target).get() == example.output)
    }

    @Test(arguments: [
        (JSONValue.string("12abc"), ConvertStep.Target.number),
        (.string("0x1F"), .number),
        (.string("NaN"), .double),
        (.string("2.5"), .int),
        (.string("2024-02-30"), .timestamp),
        (.string("yesterday"), .timestamp),
        (.array([]), .string),
    ])
    func convertRejectsWhatItCannotRead(input: JSONValue, target: ConvertStep.Target) {
        #expect(throws: ConversionFailure.self) { try ValueConversion.convert(input, to: target).get() }
    }

    @Test func convertStepHandlesEmptyStringsAndStrippedCharacters() throws {
        let shaper = Shaper(steps: [
            .convert(ConvertStep(fields: [FieldPath(["price"])], to: .double, stripCharacters: "$,", empty: .null)),
            .convert(ConvertStep(fields: [FieldPath(["weight"])], to: .number, stripCharacters: "", empty: .null)),
            .convert(ConvertStep(fields: [FieldPath(["note"])], to: .number, stripCharacters: "", empty: .drop)),
        ], key: .field(FieldPath(["id"])))
        let (_, document) = try shaper.shape(["id": "x", "price": "$1,284.50", "weight": "", "note": " "])
        #expect(document == ["id": "x", "price": JSONValue.double(1284.5), "weight": JSONValue.null])
    }

    @Test func pickRenameDropAndSetShapeTheDocument() throws {
        let shaper = Shaper(steps: [
            .pick([FieldPath(["id"]), FieldPath(["sku", "price"]), FieldPath(["name"]), FieldPath(["junk"])]),
            .rename([FieldRename(from: FieldPath(["sku", "price"]), to: FieldPath(["price"]))]),
            .drop([FieldPath(["junk"])]),
            .set([FieldAssignment(field: FieldPath(["url"]), value: .template(try Template(parsing: "https://shop.test/p/{id}"))),
                  FieldAssignment(field: FieldPath(["meta", "source"]), value: .constant("shop"))]),
        ], key: .template(try Template(parsing: "{id}-{name}")))
        let (key, document) = try shaper.shape(["id": "P1", "name": "Rose", "junk": 1, "other": true, "sku": ["price": 5, "code": "c"]])
        #expect(key == "P1-Rose")
        #expect(document == ["id": "P1", "name": "Rose", "sku": [:], "price": 5, "url": "https://shop.test/p/P1", "meta": ["source": "shop"]])
    }

    @Test func hashKeysAreStableAndDocumented() throws {
        let shaper = Shaper(steps: [], key: .hash([FieldPath(["image_url"]), FieldPath(["doc_url"])]))
        let key = try shaper.makeKey(["doc_url": "d", "image_url": "i", "width": 3])
        // SHA-256 of {"doc_url":"d","image_url":"i"}, first 32 hex digits.
        #expect(key == "b0d6771a46621aad4f7efee04fecd5ca")
        #expect(try shaper.makeKey(["image_url": "i", "doc_url": "d", "width": 4]) == key)
        #expect(try shaper.makeKey(["image_url": "j", "doc_url": "d"]) != key)
    }

    @Test func keysMustBeValidDocumentIDs() {
        let shaper = Shaper(steps: [], key: .field(FieldPath(["id"])))
        #expect(throws: Shaper.Failure.self) { try shaper.shape(["id": "a/b"]) }
        #expect(throws: Shaper.Failure(field: "id", message: "key field id is missing")) { try shaper.shape(["x": 1]) }
        #expect((try? shaper.shape(["id": 42]))?.key == "42")
    }
}
