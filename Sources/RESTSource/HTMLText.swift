/// Turns HTML fragments into plain text.
///
/// Tags are removed; `<br>` is a line break, and `<p>`, `<li>`, `<div>`,
/// headings, table rows and list containers start a new line; `<script>`/`<style>` content and comments
/// are dropped; character references are decoded (`&amp;`, `&#39;`, `&#x27;`,
/// `&mdash;` and the other common names); runs of whitespace inside a line fold
/// to one space, lines are trimmed, and at most one blank line is kept.
///
/// ```swift
/// HTMLText.plainText("<b>Key Notes:</b> Rose &amp; Oud<br>Musk")  // "Key Notes: Rose & Oud\nMusk"
/// ```
public enum HTMLText {
    /// The plain text of an HTML fragment.
    public static func plainText(_ html: String) -> String {
        var builder = LineBuilder()
        let scalars = Array(html.unicodeScalars)
        var memo = TagScanMemo()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                if let (end, tag, isClosing) = parseTag(scalars, from: index, memo: &memo) {
                    index = end
                    if tag == "!--" {
                        index = skipComment(scalars, from: index)
                        continue
                    }
                    if !isClosing, tag == "script" || tag == "style" {
                        index = skipElementContent(scalars, from: index, tag: tag, memo: &memo)
                        continue
                    }
                    if tag == "br" { builder.lineBreak() } else if blockTags.contains(tag) { builder.endLine() }
                    continue
                }
                builder.append(scalar)
                index += 1
            } else if scalar == "&" {
                if let (decoded, end) = decodeReference(scalars, from: index) {
                    for character in decoded.unicodeScalars {
                        if character == "\u{A0}" { builder.append(" ") } else { builder.appendLiteral(character) }
                    }
                    index = end
                } else {
                    builder.append(scalar)
                    index += 1
                }
            } else {
                builder.append(scalar)
                index += 1
            }
        }
        return builder.finish()
    }

    private static let blockTags: Set<String> = [
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "hr", "pre", "section", "article", "header", "footer",
    ]

    /// Parses `<tag …>` at `start`: the index after `>`, the lower-cased name
    /// (`!--` for a comment opener), and whether it is a closing tag. Nil when
    /// the `<` does not start a tag (it is then kept as text).
    ///
    /// `memo` remembers where a scan for the closing `>` already ran into the end
    /// of the input, so text with many `<` and no `>` after them (`a<b a<b …`)
    /// costs linear time, not quadratic.
    private static func parseTag(_ s: [Unicode.Scalar], from start: Int, memo: inout TagScanMemo) -> (Int, String, Bool)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == "!", i + 2 < s.count, s[i + 1] == "-", s[i + 2] == "-" { return (i + 3, "!--", false) }
        var isClosing = false
        if s[i] == "/" { isClosing = true; i += 1 }
        guard i < s.count, s[i].properties.isAlphabetic || s[i] == "!" || s[i] == "?" else { return nil }
        var name = ""
        while i < s.count, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) || s[i] == "!" || s[i] == "?" || s[i] == "-" {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        let scanStart = i
        var quote: Unicode.Scalar?
        while i < s.count {
            if memo.isKnownToFail(at: i, quote: quote) {
                memo.recordFailure(s, from: scanStart, to: i)
                return nil
            }
            let c = s[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return (i + 1, name.lowercased(), isClosing)
            }
            i += 1
        }
        memo.recordFailure(s, from: scanStart, to: s.count)
        return nil
    }

    private static func skipComment(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i + 2 < s.count {
            if s[i] == "-", s[i + 1] == "-", s[i + 2] == ">" { return i + 3 }
            i += 1
        }
        return s.count
    }

    /// The index after `</tag …>`, or the end of the input. Script and style
    /// content is raw text: only a closing tag of the same name ends it.
    private static func skipElementContent(_ s: [Unicode.Scalar], from start: Int, tag: String, memo: inout TagScanMemo) -> Int {
        let name = Array(tag.unicodeScalars)
        var i = start
        while i + 1 + name.count < s.count {
            if s[i] == "<", s[i + 1] == "/", zip(name, s[(i + 2)...]).allSatisfy({ $0 == Unicode.Scalar(String($1).lowercased()) }) {
                let after = i + 2 + name.count
                let isNameEnd = after >= s.count || !(s[after].properties.isAlphabetic || ("0"..."9").contains(s[after]) || s[after] == "-")
                if isNameEnd, let (end, _, _) = parseTag(s, from: i, memo: &memo) { return end }
            }
            i += 1
        }
        return s.count
    }

    /// Decodes `&name;`, `&#NNN;` or `&#xHH;` at `start`.
    static func decodeReference(_ s: [Unicode.Scalar], from start: Int) -> (String, Int)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == "#" {
            i += 1
            var radix = 10
            if i < s.count, s[i] == "x" || s[i] == "X" { radix = 16; i += 1 }
            var digits = ""
            while i < s.count, digits.count < 8, s[i].properties.isASCIIHexDigit { digits.unicodeScalars.append(s[i]); i += 1 }
            guard !digits.isEmpty, i < s.count, s[i] == ";", let code = UInt32(digits, radix: radix) else { return nil }
            let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
            return (code == 0 ? "\u{FFFD}" : String(Character(scalar)), i + 1)
        }
        var name = ""
        while i < s.count, name.count < 10, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        guard i < s.count, s[i] == ";", let decoded = namedReferences[name] else { return nil }
        return (decoded, i + 1)
    }

    /// Decodes character references in plain text (no tag handling).
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (decoded, end) = decodeReference(scalars, from: index) {
                result.append(contentsOf: decoded.unicodeScalars)
                index = end
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    static let namedReferences: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
            "mdash": "\u{2014}", "ndash": "\u{2013}", "hellip": "\u{2026}", "bull": "\u{2022}", "middot": "\u{B7}",
            "lsquo": "\u{2018}", "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
            "bdquo": "\u{201E}", "prime": "\u{2032}", "Prime": "\u{2033}", "trade": "\u{2122}", "euro": "\u{20AC}",
            "dagger": "\u{2020}", "Dagger": "\u{2021}", "permil": "\u{2030}", "lsaquo": "\u{2039}", "rsaquo": "\u{203A}",
            "thinsp": "\u{2009}", "ensp": "\u{2002}", "emsp": "\u{2003}", "zwnj": "\u{200C}", "zwj": "\u{200D}",
            "lrm": "\u{200E}", "rlm": "\u{200F}", "OElig": "\u{152}", "oelig": "\u{153}", "Scaron": "\u{160}",
            "scaron": "\u{161}", "Yuml": "\u{178}", "fnof": "\u{192}", "circ": "\u{2C6}", "tilde": "\u{2DC}",
            "larr": "\u{2190}", "rarr": "\u{2192}", "uarr": "\u{2191}", "darr": "\u{2193}", "harr": "\u{2194}",
            "hearts": "\u{2665}", "minus": "\u{2212}", "le": "\u{2264}", "ge": "\u{2265}", "ne": "\u{2260}",
            "infin": "\u{221E}", "asymp": "\u{2248}", "check": "\u{2713}",
        ]
        // Latin-1 names for U+00A1 … U+00FF, in code point order.
        let latin1 = """
            iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute \
            micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring \
            AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml \
            times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil \
            egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash \
            ugrave uacute ucirc uuml yacute thorn yuml
            """.split(separator: " ")
        for (offset, name) in latin1.enumerated() {
            table[String(name)] = String(Character(Unicode.Scalar(UInt32(0xA1 + offset))!))
        }
        return table
    }()
}

/// Where scans for a tag's closing `>` are known to reach the end of the input:
/// for each position, the quote states (none, `"`, `'`) a scan may be in there.
/// A scan that arrives at a recorded position in a recorded state would repeat a
/// failed scan, so it fails at once. Each position and state is recorded once.
private struct TagScanMemo {
    private var failing: [UInt8] = []

    private static func bit(_ quote: Unicode.Scalar?) -> UInt8 {
        switch quote {
        case nil: 1
        case "\""?: 2
        default: 4
        }
    }

    func isKnownToFail(at index: Int, quote: Unicode.Scalar?) -> Bool {
        !failing.isEmpty && failing[index] & Self.bit(quote) != 0
    }

    /// Records every position and state of a scan from `start` (outside quotes)
    /// that failed at `end`.
    mutating func recordFailure(_ s: [Unicode.Scalar], from start: Int, to end: Int) {
        if failing.isEmpty { failing = [UInt8](repeating: 0, count: s.count) }
        var quote: Unicode.Scalar?
        var i = start
        while i < end {
            failing[i] |= Self.bit(quote)
            let c = s[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            }
            i += 1
        }
    }
}

/// Collects text into lines: whitespace folds to single spaces, lines are
/// trimmed, and no more than one blank line is kept between lines.
private struct LineBuilder {
    private var lines: [String] = []
    private var current = String.UnicodeScalarView()
    private var pendingSpace = false

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace && scalar != "\u{A0}" {
            pendingSpace = true
        } else {
            appendLiteral(scalar)
        }
    }

    /// Appends a decoded character as is (a decoded `&#10;` is not folded).
    mutating func appendLiteral(_ scalar: Unicode.Scalar) {
        if scalar == "\u{AD}" { return } // soft hyphen
        if pendingSpace, !current.isEmpty { current.append(" ") }
        pendingSpace = false
        current.append(scalar)
    }

    mutating func lineBreak() {
        lines.append(String(current).trimmingWhitespace())
        current = String.UnicodeScalarView()
        pendingSpace = false
    }

    /// Ends the current line unless it is empty (block boundaries add no blank lines).
    mutating func endLine() {
        if !current.isEmpty { lineBreak() }
        pendingSpace = false
    }

    mutating func finish() -> String {
        lineBreak()
        var result: [String] = []
        var blank = false
        for line in lines {
            if line.isEmpty {
                blank = !result.isEmpty
                continue
            }
            if blank { result.append("") }
            blank = false
            result.append(line)
        }
        return result.joined(separator: "\n")
    }
}
