import DocModel
import Testing

@Suite(.timeLimit(.minutes(3))) struct TimestampTests {
    @Test(arguments: [
        ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"),
        ("2024-01-02T03:04:05.000000Z", "2024-01-02T03:04:05Z"),
        ("2024-01-02T03:04:05.1Z", "2024-01-02T03:04:05.100Z"),
        ("2024-01-02T03:04:05.120Z", "2024-01-02T03:04:05.120Z"),
        ("2024-01-02T03:04:05.123400Z", "2024-01-02T03:04:05.123400Z"),
        ("2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05.123456Z"),   // 9 digits: truncated, not rounded
        ("2024-01-02T03:04:05.999999999Z", "2024-01-02T03:04:05.999999Z"),
        ("2024-01-02T03:04:05.000000999Z", "2024-01-02T03:04:05Z"),
        ("2024-01-02T05:04:05.5+02:00", "2024-01-02T03:04:05.500Z"),
        ("2024-01-01T23:30:00-01:00", "2024-01-02T00:30:00Z"),
        ("2024-02-29T00:00:00z", "2024-02-29T00:00:00Z"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        ("1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999Z"),
    ])
    func normalizesToOneCanonicalForm(_ input: String, _ expected: String) throws {
        #expect(try Timestamp.normalize(input) == expected)
        #expect(try Timestamp.normalize(expected) == expected)
    }

    @Test(arguments: [
        "2024-01-02 03:04:05Z", "2024-01-02T03:04:05", "0000-01-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-13-01T00:00:00Z", "2024-01-02T24:00:00Z", "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05Zjunk",
        "0001-01-01T00:30:00+01:00", "", "yesterday",
    ])
    func refusesWhatFirestoreRefuses(_ input: String) {
        #expect(throws: TimestampError.self) { try Timestamp.normalize(input) }
    }

    @Test func secondsAndMicrosecondsMatchTheEpoch() throws {
        let before = try Timestamp(parsing: "1969-12-31T23:59:59.5Z")
        #expect(before.seconds == -1)
        #expect(before.microseconds == 500_000)
        let later = try Timestamp(parsing: "2017-06-21T06:59:30.123456Z")
        #expect(later.seconds == 1_498_028_370)
        #expect(later.nanos == 123_456_000)
        #expect(before < later)
        #expect(Timestamp.minimum.description == "0001-01-01T00:00:00Z")
        #expect(Timestamp.maximum.description == "9999-12-31T23:59:59.999999Z")
    }

    @Test(arguments: [
        ("2024-01-02", "2024-01-02T00:00:00Z"),
        ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"),
        ("2024-01-02 03:04:05.123+09:00", "2024-01-01T18:04:05.123Z"),
        ("20240102T030405Z", "2024-01-02T03:04:05Z"),
        ("2024-01-02T03:04", "2024-01-02T03:04:00Z"),
        ("2024-06-30T23:59:60Z", "2024-06-30T23:59:59Z"),
        ("2024-01-02T03:04:05,5-0130", "2024-01-02T04:34:05.500Z"),
    ])
    func readsTheDateTextAPIsWriteLeniently(_ input: String, _ expected: String) throws {
        let timestamp = try #require(Timestamp(lenient: input))
        #expect(timestamp.description == expected)
        #expect(try Timestamp(microsecondsSinceEpoch: timestamp.microsecondsSinceEpoch) == timestamp)
    }

    @Test(arguments: ["", "yesterday", "2024-13-01", "2023-02-29", "2024-01-02T25:00", "2024-01-02T03:04:05Q", "0000-01-01"])
    func lenientReadingStillRefusesWhatIsNoDate(_ input: String) {
        #expect(Timestamp(lenient: input) == nil)
    }
}
