import DocModel
import DocStore
import Foundation

/// Renders query results as text: an aligned table, a JSON array, NDJSON or
/// CSV. Pure: documents in, text out (R20).
struct QueryResultRenderer {
    enum Format: String, CaseIterable, Sendable {
        case table, json, ndjson, csv
    }

    var format: Format
    /// The selected field paths (columns); nil: every top-level field seen.
    var selection: [FieldPath]?
    /// Table cells longer than this many characters are shortened with "…".
    var maximumCellWidth = 40

    func render(_ documents: [QueryDocument]) -> String {
        switch format {
        case .table: table(documents)
        case .json: json(documents)
        case .ndjson: documents.map { Self.record($0).canonicalText + "\n" }.joined()
        case .csv: csv(documents)
        }
    }

    /// NDJSON (or a JSON array) of `{"data": ..., "id": ...}` from stored
    /// canonical texts: the same bytes `render` writes for parsed documents,
    /// built without parsing or intermediate strings.
    static func render(_ texts: [QueryDocumentText], asArray: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(texts.reduce(0) { $0 + $1.json.utf8.count + $1.id.utf8.count + 24 })
        if asArray { output += Array((texts.isEmpty ? "[]\n" : "[\n").utf8) }
        let open = Array(#"{"data":"#.utf8), middle = Array(#","id":"#.utf8)
        for (index, text) in texts.enumerated() {
            output += open
            output += text.json.utf8
            output += middle
            output += JSONValue.string(text.id).canonicalBytes
            output.append(UInt8(ascii: "}"))
            if asArray, index < texts.count - 1 { output.append(UInt8(ascii: ",")) }
            output.append(0x0A)
        }
        if asArray, !texts.isEmpty { output += Array("]\n".utf8) }
        return output
    }

    /// `{"data": {...}, "id": "..."}`: the id never collides with a field.
    static func record(_ document: QueryDocument) -> JSONValue {
        ["id": .string(document.id), "data": document.data]
    }

    private func json(_ documents: [QueryDocument]) -> String {
        guard !documents.isEmpty else { return "[]\n" }
        return "[\n" + documents.map { Self.record($0).canonicalText }.joined(separator: ",\n") + "\n]\n"
    }

    /// The columns after `id`: the selection, or every top-level field in UTF-8 order.
    func columns(_ documents: [QueryDocument]) -> [FieldPath] {
        if let selection { return selection.filter { $0 != FieldPath(["__name__"]) } }
        var names = Set<String>()
        for document in documents {
            if let keys = document.data.objectValue?.keys { names.formUnion(keys) }
        }
        return names.sorted(by: JSONWriter.utf8Precedes).map { FieldPath([$0]) }
    }

    /// A cell's text: strings as they are, everything else as canonical JSON,
    /// a missing field as nothing.
    static func cellText(_ value: JSONValue?) -> String {
        switch value {
        case nil: ""
        case .string(let string)?: string
        case let value?: value.canonicalText
        }
    }

    /// `id`, or `__name__` when a field is called `id` too.
    private func idHeader(_ columns: [FieldPath]) -> String {
        columns.contains(FieldPath(["id"])) ? "__name__" : "id"
    }

    private func table(_ documents: [QueryDocument]) -> String {
        let columns = columns(documents)
        let header = [idHeader(columns)] + columns.map(\.description)
        let rows = documents.map { document in
            [document.id] + columns.map { Self.cellText(document[$0]) }
        }.map { $0.map(tableCell) }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                if index == cells.count - 1 {
                    text += cell
                } else {
                    text += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        var output = line(header)
        output += line(widths.map { String(repeating: "-", count: $0) })
        for row in rows { output += line(row) }
        output += "(\(documents.count) \(documents.count == 1 ? "document" : "documents"))\n"
        return output
    }

    /// One line per cell: control characters escaped as in JSON, long text shortened.
    private func tableCell(_ text: String) -> String {
        // Fast path: nothing to escape, and too few bytes to be too many characters.
        let hasControl = text.utf8.contains { $0 < 0x20 }
        if !hasControl, text.utf8.count <= maximumCellWidth { return text }
        var cell = ""
        var scalarsSeen = 0
        for scalar in text.unicodeScalars {
            scalarsSeen += 1
            // Enough to fill a shortened cell; the rest would be cut anyway.
            if !hasControl, scalarsSeen > maximumCellWidth * 4 { break }
            switch scalar {
            case "\n": cell += "\\n"
            case "\r": cell += "\\r"
            case "\t": cell += "\\t"
            case _ where scalar.value < 0x20: cell += String(format: "\\u%04x", scalar.value)
            default: cell.unicodeScalars.append(scalar)
            }
        }
        guard cell.count > maximumCellWidth else { return cell }
        return String(cell.prefix(maximumCellWidth - 1)) + "…"
    }

    /// RFC 4180: CRLF line ends; fields with `,`, `"`, CR or LF quoted, quotes doubled.
    private func csv(_ documents: [QueryDocument]) -> String {
        let columns = columns(documents)
        func field(_ text: String) -> String {
            guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var output = ([idHeader(columns)] + columns.map(\.description)).map(field).joined(separator: ",") + "\r\n"
        for document in documents {
            let cells = [document.id] + columns.map { Self.cellText(document[$0]) }
            output += cells.map(field).joined(separator: ",") + "\r\n"
        }
        return output
    }
}
