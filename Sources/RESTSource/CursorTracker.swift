import DocModel

/// The highest cursor delivered, held back to the lowest failed one.
struct CursorTracker {
    private var highestDelivered: String?
    private var lowestFailed: String?

    mutating func delivered(_ value: String) {
        if highestDelivered.map({ Self.less($0, value) }) ?? true { highestDelivered = value }
    }

    mutating func failed(_ value: String) {
        if lowestFailed.map({ Self.less(value, $0) }) ?? true { lowestFailed = value }
    }

    var result: String? {
        guard let lowestFailed else { return highestDelivered }
        guard let highestDelivered else { return lowestFailed }
        return Self.less(lowestFailed, highestDelivered) ? lowestFailed : highestDelivered
    }

    /// Orders cursors as numbers when both are numeric, as instants when both
    /// are timestamps, else by UTF-8 text.
    static func less(_ a: String, _ b: String) -> Bool {
        if let x = ValueConversion.parseNumber(a)?.numberValue, let y = ValueConversion.parseNumber(b)?.numberValue { return x < y }
        if let x = Timestamp(lenient: a), let y = Timestamp(lenient: b) { return x < y }
        return JSONWriter.utf8Precedes(a, b)
    }
}
