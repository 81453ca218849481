/// Spaces requests evenly to at most `requestsPerSecond`.
actor RateLimiter {
    private let interval: Duration
    private var next: ContinuousClock.Instant?
    private let clock = ContinuousClock()

    init(requestsPerSecond: Double) {
        interval = .nanoseconds(Int64((1_000_000_000 / requestsPerSecond).rounded()))
    }

    /// Waits for this caller's slot.
    func acquire() async throws {
        let now = clock.now
        let slot = max(now, next ?? now)
        next = slot + interval
        if slot > now { try await Task.sleep(until: slot, clock: clock) }
    }
}
