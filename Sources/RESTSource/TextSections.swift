/// Finds labelled sections in plain text, such as
/// `Fragrance Family: Fresh` or `Key Notes:` followed by a list on later lines.
///
/// A section starts after `Label:` (labels match case-insensitively, anywhere
/// a word starts) and runs to the next label: another of the requested labels,
/// or any other `Some Label:` at the start of a line (up to six words, starting
/// with a letter, the colon followed by a space or the end of the line). The
/// value is trimmed; an empty or missing section yields no entry.
///
/// ```swift
/// TextSections.extract("Style: Bold\nScent Type: Warm\nKey Notes: Oud.\nAbout: x",
///                      labels: ["Scent Type", "Key Notes", "Fragrance Family"])
/// // ["Scent Type": "Warm", "Key Notes": "Oud."]
/// ```
public enum TextSections {
    /// The value of each label found, keyed by the label as given.
    public static func extract(_ text: String, labels: [String]) -> [String: String] {
        let characters = Array(text)
        let lowered = characters.map { $0.lowercased() }
        let wanted = labels.map { label in Array(label).map { $0.lowercased() } }

        struct Marker { var start: Int; var contentStart: Int; var label: Int? }
        var markers: [Marker] = []

        // Requested labels anywhere a word starts.
        for (labelIndex, label) in wanted.enumerated() where !label.isEmpty {
            var i = 0
            while i + label.count <= characters.count {
                defer { i += 1 }
                guard i == 0 || !isWordCharacter(characters[i - 1]) else { continue }
                guard Array(lowered[i..<(i + label.count)]) == label else { continue }
                var j = i + label.count
                while j < characters.count, characters[j] == " " || characters[j] == "\t" { j += 1 }
                guard j < characters.count, characters[j] == ":" else { continue }
                markers.append(Marker(start: i, contentStart: j + 1, label: labelIndex))
            }
        }

        // Any other `Label:` at the start of a line ends the section before it.
        var lineStart = 0
        while lineStart < characters.count {
            var i = lineStart
            while i < characters.count, characters[i] == " " || characters[i] == "\t" { i += 1 }
            if let colon = unknownLabelColon(characters, from: i), !markers.contains(where: { $0.start == i }) {
                markers.append(Marker(start: i, contentStart: colon + 1, label: nil))
            }
            guard let newline = characters[lineStart...].firstIndex(where: { $0.isNewline }) else { break }
            lineStart = newline + 1
        }

        markers.sort { $0.start < $1.start }
        var result: [String: String] = [:]
        for (index, marker) in markers.enumerated() {
            guard let labelIndex = marker.label, result[labels[labelIndex]] == nil else { continue }
            // Skip markers that fall inside this marker's own label text.
            let end = markers[(index + 1)...].first(where: { $0.start >= marker.contentStart })?.start ?? characters.count
            let value = String(characters[marker.contentStart..<max(marker.contentStart, end)]).trimmingWhitespace()
            if !value.isEmpty { result[labels[labelIndex]] = value }
        }
        return result
    }

    /// The index of the colon when a generic label starts at `start`.
    private static func unknownLabelColon(_ characters: [Character], from start: Int) -> Int? {
        guard start < characters.count, characters[start].isLetter else { return nil }
        var i = start
        var words = 1
        while i < characters.count, i - start <= 60 {
            let character = characters[i]
            if character == ":" {
                let next = i + 1
                guard next == characters.count || characters[next].isWhitespace else { return nil }
                return i
            }
            if character == " " {
                words += 1
                if words > 6 { return nil }
            } else if !(character.isLetter || character.isNumber || "&'’/-()".contains(character)) {
                return nil
            }
            i += 1
        }
        return nil
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
