import DocModel
import Testing

/// Found by the fuzz campaign: a field name that starts with a combining mark
/// (U+0300…U+036F and the like) prints as `` `◌̞` ``, and the backtick and the mark
/// form one Swift `Character`, which `FieldPath(parsing:)` does not recognise as
/// a backtick. Field names come from API data, so such a name can reach an
/// update mask.
@Suite(.timeLimit(.minutes(3))) struct FieldPathRoundTripTests {
    @Test(arguments: ["\u{31E}", "\u{301}rating", "a`\u{301}", "x\\\u{300}"])
    func anySegmentPrintsToTextThatParsesBackToIt(_ segment: String) throws {
        let path = FieldPath([segment, "b"])
        #expect(try FieldPath(parsing: path.description) == path)
    }
}
