import FoundationEssentials
import DocModel

/// Short, one-line spellings of values for reports.
enum ValueFormatter {
    static let maximumLength = 60

    /// Canonical JSON of `value`, shortened to `maximumLength` characters with "…".
    static func short(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        return shorten(value.canonicalText)
    }

    static func shorten(_ text: String) -> String {
        let flat = text.replacing("\n", with: "\\n")
        guard flat.count > maximumLength else { return flat }
        return String(flat.prefix(maximumLength - 1)) + "…"
    }

    /// For an array that changed into another array: the elements added and removed
    /// (as a multiset, by canonical text), or nil when either side is not an array.
    static func arrayDelta(old: JSONValue?, new: JSONValue?) -> (added: [JSONValue], removed: [JSONValue])? {
        guard case .array(let before)? = old, case .array(let after)? = new else { return nil }
        var remaining: [String: Int] = [:]
        for element in before { remaining[element.canonicalText, default: 0] += 1 }
        var added: [JSONValue] = []
        for element in after {
            let key = element.canonicalText
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
            } else {
                added.append(element)
            }
        }
        var removed: [JSONValue] = []
        for element in before {
            let key = element.canonicalText
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                removed.append(element)
            }
        }
        return (added, removed)
    }

    /// "old → new", or for arrays "+a, +b, -c" (or "reordered" when only the order changed).
    static func change(_ change: FieldChange) -> String {
        if let delta = arrayDelta(old: change.old, new: change.new) {
            let parts = delta.added.map { "+" + short($0) } + delta.removed.map { "-" + short($0) }
            return parts.isEmpty ? "reordered" : shorten(parts.joined(separator: ", "))
        }
        return "\(short(change.old)) → \(short(change.new))"
    }
}
