import DocModel
import DocStore
import FoundationEssentials

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
    /// The terminal's width: without `selection`, the table keeps to it by
    /// choosing and cutting columns. nil: no limit (not a terminal).
    var width: Int?

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

    /// A table cell's text: as `cellText`, with a timestamp shown as its time.
    static func tableCellText(_ value: JSONValue?) -> String {
        if case .object(let object)? = value, object.count == 1, case .string(let time)? = object[ExtendedValue.timestamp] {
            return time
        }
        return cellText(value)
    }

    /// Columns that fit `width`, in their usual order: fields that hold plain
    /// values (not maps or arrays), then fields most documents have, then narrow
    /// ones are chosen first; a column that does not fit whole is cut to what
    /// is left. Also returns the widths.
    func fit(_ columns: [FieldPath], cells: [[String]], header: [String], width: Int) -> (kept: [Int], widths: [Int]) {
        // Column 0 is the id, always shown.
        var natural = header.map(\.count)
        var present = Array(repeating: 0, count: header.count)
        var composite = Array(repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() {
                natural[index] = max(natural[index], cell.count)
                if !cell.isEmpty { present[index] += 1 }
                if cell.hasPrefix("{") || cell.hasPrefix("[") { composite[index] += 1 }
            }
        }
        let candidates = (1..<header.count).sorted { a, b in
            let plainA = composite[a] * 2 <= present[a], plainB = composite[b] * 2 <= present[b]
            if plainA != plainB { return plainA }
            if present[a] != present[b] { return present[a] > present[b] }
            if natural[a] != natural[b] { return natural[a] < natural[b] }
            return a < b
        }
        var used = natural[0]
        var kept: [Int] = [0]
        var widths = natural
        for index in candidates {
            let room = width - used - 2
            if natural[index] <= room {
                kept.append(index)
                used += 2 + natural[index]
            } else if room >= max(8, header[index].count) {
                widths[index] = room
                kept.append(index)
                used = width
            }
        }
        return (kept.sorted(), widths)
    }

    private func table(_ documents: [QueryDocument]) -> String {
        let allColumns = columns(documents)
        var header = [idHeader(allColumns)] + allColumns.map(\.description)
        var rows = documents.map { document in
            [document.id] + allColumns.map { Self.tableCellText(document[$0]) }
        }.map { $0.map(tableCell) }
        var widths = header.map(\.count)
        var note = ""
        if selection == nil, let width {
            let (kept, fitted) = fit(allColumns, cells: rows, header: header, width: width)
            if kept.count < header.count {
                note = "; \(kept.count - 1) of \(header.count - 1) fields fit \(width) columns; --select or --format json for the rest"
            }
            header = kept.map { header[$0] }
            rows = rows.map { row in kept.map { index in cut(row[index], to: fitted[index]) } }
            widths = kept.map { min(fitted[$0], header[kept.firstIndex(of: $0)!].count) }
        }
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
        output += "(\(documents.count) \(documents.count == 1 ? "document" : "documents")\(note))\n"
        return output
    }

    /// `text` shortened with "…" to at most `width` characters.
    private func cut(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 0 else { return text }
        return String(text.prefix(width - 1)) + "…"
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
            case _ where scalar.value < 0x20: cell += String(cFormat: "\\u%04x", scalar.value)
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
            return "\"" + text.replacing("\"", with: "\"\"") + "\""
        }
        var output = ([idHeader(columns)] + columns.map(\.description)).map(field).joined(separator: ",") + "\r\n"
        for document in documents {
            let cells = [document.id] + columns.map { Self.cellText(document[$0]) }
            output += cells.map(field).joined(separator: ",") + "\r\n"
        }
        return output
    }
}
