import Synchronization

/// Firestore's 500/50/5 rule as a token bucket: start at 500 writes per second,
/// raise the rate by 50% every 5 minutes, never above 10,000.
///
/// `reserve(_:)` takes tokens at once (the balance may go negative) and says how
/// long the caller must wait before sending, so concurrent batches queue fairly.
final class RampUpLimiter: Sendable {
    static let initialRate = 500.0
    static let multiplier = 1.5
    static let phase = Duration.seconds(300)
    static let maximumRate = 10_000.0

    private struct State {
        var start: ContinuousClock.Instant
        var lastRefill: ContinuousClock.Instant
        var tokens: Double
    }

    private let state: Mutex<State>
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        let start = now()
        self.now = now
        state = Mutex(State(start: start, lastRefill: start, tokens: Self.initialRate))
    }

    /// The allowed writes per second at `instant`.
    func rate(at instant: ContinuousClock.Instant) -> Double {
        let elapsed = state.withLock { instant - $0.start }
        let phases = max(0, Int(elapsed / Self.phase))
        var rate = Self.initialRate
        for _ in 0..<min(phases, 20) { rate *= Self.multiplier }
        return min(rate, Self.maximumRate)
    }

    /// Takes `count` tokens and returns how long to wait before using them.
    func reserve(_ count: Int) -> Duration {
        let instant = now()
        let rate = rate(at: instant)
        return state.withLock { state in
            let elapsed = instant - state.lastRefill
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            state.tokens = min(rate, state.tokens + seconds * rate)
            state.lastRefill = instant
            state.tokens -= Double(count)
            guard state.tokens < 0 else { return .zero }
            return .milliseconds(Int((-state.tokens / rate * 1000).rounded(.up)))
        }
    }
}
