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
        var cell = ""
        for scalar in text.unicodeScalars {
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
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
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
