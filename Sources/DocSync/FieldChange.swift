import DocModel

/// One field that differs between two versions of a document.
///
/// `old == nil` means the field was absent before (added); `new == nil` means it
/// is absent now (removed). Maps are compared member by member, so a change deep
/// inside a map is reported at its own path (`meta.total`); arrays and scalars are
/// compared as whole values.
public struct FieldChange: Sendable, Equatable {
    public var path: FieldPath
    public var old: JSONValue?
    public var new: JSONValue?

    public init(path: FieldPath, old: JSONValue?, new: JSONValue?) {
        self.path = path
        self.old = old
        self.new = new
    }

    /// The changed fields between two documents (objects), sorted by path.
    ///
    /// Values are compared canonically, so key order or `1` written as the
    /// source sent it never shows up as a change; `1` and `1.0` do differ,
    /// because Firestore stores them as different types.
    public static func between(_ old: [String: JSONValue], _ new: [String: JSONValue]) -> [FieldChange] {
        var changes: [FieldChange] = []
        collect(old: old, new: new, prefix: [], into: &changes)
        return changes.sorted { $0.path < $1.path }
    }

    private static func collect(
        old: [String: JSONValue], new: [String: JSONValue], prefix: [String], into changes: inout [FieldChange]
    ) {
        for (key, oldValue) in old {
            let path = prefix + [key]
            guard let newValue = new[key] else {
                changes.append(FieldChange(path: FieldPath(path), old: oldValue, new: nil))
                continue
            }
            if case .object(let oldMembers) = oldValue, case .object(let newMembers) = newValue,
               !isSpecialValue(oldMembers), !isSpecialValue(newMembers), !oldMembers.isEmpty, !newMembers.isEmpty
            {
                collect(old: oldMembers, new: newMembers, prefix: path, into: &changes)
            } else if !oldValue.isCanonicallyEqual(to: newValue) {
                changes.append(FieldChange(path: FieldPath(path), old: oldValue, new: newValue))
            }
        }
        for (key, newValue) in new where old[key] == nil {
            changes.append(FieldChange(path: FieldPath(prefix + [key]), old: nil, new: newValue))
        }
    }

    /// True when the two documents differ only in how numbers are spelled (`1` vs
    /// `1.0`): many APIs are written in languages with a single number type and
    /// send `10` one day and `10.0` the next. The planner treats such a record as
    /// unchanged and keeps the stored spelling.
    public static func differOnlyInNumberSpelling(_ old: JSONValue, _ new: JSONValue) -> Bool {
        isNumericallyEquivalent(old, new)
    }

    private static func isNumericallyEquivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int(let i), .double(let d)), (.double(let d), .int(let i)):
            return Double(exactly: i) == d && !(d == 0 && d.sign == .minus)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { isNumericallyEquivalent($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                guard let other = y[key], isNumericallyEquivalent(value, other) else { return false }
            }
            return true
        default:
            return a.isCanonicallyEqual(to: b)
        }
    }

    /// One-key objects such as `{"$timestamp": …}` are single Firestore values, not maps.
    static func isSpecialValue(_ members: [String: JSONValue]) -> Bool {
        guard members.count == 1, let key = members.keys.first else { return false }
        return ExtendedValue.keys.contains(key)
    }
}
