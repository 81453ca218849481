/// "Did you mean …?": the one way docsync suggests a name for a mistyped one,
/// whether an option, a subcommand, a config key, a shaping step or a field.
public enum Suggestion {
    /// The candidate closest to `input` by edit distance, ignoring case, when it is
    /// close enough to be a likely typo (at most 2 edits, or a third of the
    /// candidate's length); ties go to the candidate that sorts first.
    public static func nearest(to input: String, in candidates: some Sequence<String>) -> String? {
        let lowered = input.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(2, candidate.count / 3), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters each cost 1 (`strcit` → `strict` is 1).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
