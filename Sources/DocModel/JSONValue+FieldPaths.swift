/// Editing a document by field path: the one implementation the shaping steps,
/// update masks, the Firestore encoder and query projections share.
extension JSONValue {
    /// Sets the value at `path`, creating missing (or null) intermediate objects.
    /// Returns false when a step on the way is another kind of value (the value is
    /// then unchanged).
    @discardableResult
    public mutating func set(_ newValue: JSONValue, at path: FieldPath) -> Bool {
        set(newValue, at: path.segments[...])
    }

    private mutating func set(_ newValue: JSONValue, at segments: ArraySlice<String>) -> Bool {
        guard case .object(var members) = self else { return false }
        let head = segments.first!
        if segments.count == 1 {
            members[head] = newValue
            self = .object(members)
            return true
        }
        var child = members[head] ?? .object([:])
        if child.isNull { child = .object([:]) }
        // Release our reference before mutating the child so it can be updated in place.
        members[head] = nil
        let done = child.set(newValue, at: segments.dropFirst())
        members[head] = child
        self = .object(members)
        return done
    }

    /// Removes and returns the value at `path`, if present.
    @discardableResult
    public mutating func remove(at path: FieldPath) -> JSONValue? {
        remove(at: path.segments[...])
    }

    private mutating func remove(at segments: ArraySlice<String>) -> JSONValue? {
        guard case .object(var members) = self else { return nil }
        let head = segments.first!
        if segments.count == 1 {
            let removed = members.removeValue(forKey: head)
            if removed != nil { self = .object(members) }
            return removed
        }
        guard var child = members.removeValue(forKey: head) else { return nil }
        let removed = child.remove(at: segments.dropFirst())
        members[head] = child
        self = .object(members)
        return removed
    }

    /// An object holding only the given paths (with their parents).
    public func picking(_ paths: [FieldPath]) -> JSONValue {
        var result = JSONValue.object([:])
        for path in paths {
            if let value = self[path] { result.set(value, at: path) }
        }
        return result
    }
}
