extension Duration {
    /// The duration in seconds as people write them, for messages such as
    /// "no answer within 0.5 s": `2`, `0.5`, `1.25` (to the millisecond).
    public var secondsText: String {
        let (whole, fraction) = components
        if fraction == 0 { return String(whole) }
        let value = Double(whole) + Double(fraction) / 1e18
        return String((value * 1000).rounded() / 1000)
    }
}
