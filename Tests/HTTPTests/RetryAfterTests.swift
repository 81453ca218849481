import Foundation
import HTTP
import Testing

@Suite(.timeLimit(.minutes(3))) struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_793_000_000)  // 2026-10-26T07:33:20Z

    @Test func readsDelaySeconds() {
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 1.5 ", now: now) == .milliseconds(1500))
        #expect(RetryAfter.parse("-3", now: now) == nil)
    }

    @Test func readsAnIMFFixdateAsTheWaitFromNow() {
        #expect(RetryAfter.parse("Mon, 26 Oct 2026 07:35:20 GMT", now: now) == .seconds(120))
        // A date already past asks for no wait.
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .zero)
        // Leap day.
        let leap = Date(timeIntervalSince1970: 1_709_164_800)  // 2024-02-29T00:00:00Z
        #expect(RetryAfter.parse("Thu, 29 Feb 2024 00:00:10 GMT", now: leap) == .seconds(10))
    }

    @Test(arguments: ["Mon, 26 Oct 2026 09:35:20 UTC", "Mon 26 Oct 2026 09:35:20 GMT", "Mon, 30 Feb 2026 09:35:20 GMT",
                      "Mon, 26 Okt 2026 09:35:20 GMT", "Mon, 26 Oct 2026 24:00:00 GMT", "soon", ""])
    func refusesAnythingElse(text: String) {
        #expect(RetryAfter.parse(text, now: now) == nil)
    }
}
