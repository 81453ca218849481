/// "Did you mean …?" for mistyped options and subcommands.
enum Suggestion {
    /// The candidate closest to `input` by edit distance, when it is close enough
    /// to be a likely typo (at most 2 edits, or a third of the candidate's length).
    static func nearest(to input: String, in candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(input, candidate)
            if distance <= max(2, candidate.count / 3), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters each cost 1 (`strcit` → `strict` is 1).
    static func editDistance(_ a: String, _ b: String) -> Int {
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
