import DocModel

/// The tokens of a query condition and the lexer that reads them; each token
/// keeps its 1-based column so errors point at the mistake.
extension QueryExpressionParser {
    struct Token {
        enum Kind: Equatable {
            case path(FieldPath)
            case string(String)
            case integer(Int64)
            case double(Double)
            case symbol(String)  // == != < <= > >= && ||
            case keywordOperator(QueryOperator)  // in, not-in, array-contains, array-contains-any
            case punctuation(Character)
        }

        var kind: Kind
        var text: String
        var column: Int
        /// A path written with backticks (never a keyword).
        var isQuoted = false

        var described: String {
            switch kind {
            case .string: "the string \(text)"
            default: "'\(text)'"
            }
        }
    }

    /// Splits the text into tokens; every token remembers its 1-based column.
    struct Lexer {
        private let characters: [Character]
        private var index = 0

        init(_ text: String) { characters = Array(text) }

        private var column: Int { index + 1 }
        private func character(at offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        static let hyphenatedOperators: [QueryOperator] = [.arrayContainsAny, .arrayContains, .notIn]

        mutating func tokens() throws(QueryError) -> [Token] {
            var tokens: [Token] = []
            while let character = character() {
                if character.isWhitespace {
                    index += 1
                    continue
                }
                let start = column
                switch character {
                case "(", ")", "[", "]", "{", "}", ",", ":":
                    tokens.append(Token(kind: .punctuation(character), text: String(character), column: start))
                    index += 1
                case "=", "!", "<", ">", "&", "|":
                    var run = ""
                    while let next = self.character(), "=!<>&|".contains(next) {
                        run.append(next)
                        index += 1
                    }
                    guard ["==", "!=", "<", "<=", ">", ">=", "&&", "||"].contains(run) else {
                        let hint = run == "=" ? " (compare with '==')" : ""
                        throw .syntax(column: start, message: "unexpected '\(run)'\(hint)")
                    }
                    tokens.append(Token(kind: .symbol(run), text: run, column: start))
                case "\"", "'":
                    tokens.append(try readString(quote: character))
                case "-" where self.character(at: 1).map({ $0.isASCII && $0.isNumber }) == true,
                     _ where character.isASCII && character.isNumber:
                    tokens.append(try readNumber())
                case "-" where matches("-Infinity"):
                    index += "-Infinity".count
                    tokens.append(Token(kind: .double(-.infinity), text: "-Infinity", column: start))
                case _ where character == "`" || character == "_" || (character.isASCII && character.isLetter):
                    if let op = Self.hyphenatedOperators.first(where: { matchesWord($0.rawValue) }) {
                        index += op.rawValue.count
                        tokens.append(Token(kind: .keywordOperator(op), text: op.rawValue, column: start))
                    } else {
                        tokens.append(try readPath())
                    }
                default:
                    throw .syntax(column: start, message: "unexpected '\(character)'")
                }
            }
            return tokens
        }

        private func matches(_ word: String) -> Bool {
            let candidate = characters.dropFirst(index).prefix(word.count)
            return String(candidate).lowercased() == word.lowercased()
        }

        /// `word` at the current position, not followed by an identifier character.
        private func matchesWord(_ word: String) -> Bool {
            guard matches(word) else { return false }
            guard let after = character(at: word.count) else { return true }
            return !(after.isASCII && (after.isLetter || after.isNumber || after == "_"))
        }

        private mutating func readString(quote: Character) throws(QueryError) -> Token {
            let start = column
            index += 1
            var value = ""
            while let character = character() {
                index += 1
                if character == quote {
                    return Token(kind: .string(value), text: String(characters[(start - 1)..<index]), column: start)
                }
                guard character == "\\" else {
                    value.append(character)
                    continue
                }
                guard let escaped = self.character() else { break }
                let escapeColumn = column - 1
                index += 1
                switch escaped {
                case "\"", "'", "\\", "/", "`": value.append(escaped)
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "b": value.append("\u{08}")
                case "f": value.append("\u{0C}")
                case "u":
                    var scalarValue = try readHex4(escapeColumn)
                    if (0xD800..<0xDC00).contains(scalarValue) {
                        guard self.character() == "\\", self.character(at: 1) == "u" else {
                            throw .syntax(column: escapeColumn, message: "a \\u escape of a high surrogate must be followed by a low surrogate")
                        }
                        index += 2
                        let low = try readHex4(escapeColumn)
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw .syntax(column: escapeColumn, message: "invalid surrogate pair in \\u escape")
                        }
                        scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(scalarValue) else {
                        throw .syntax(column: escapeColumn, message: "\\u escape names no character")
                    }
                    value.unicodeScalars.append(scalar)
                default:
                    throw .syntax(column: escapeColumn, message: "unknown escape '\\\(escaped)' in a string")
                }
            }
            throw .syntax(column: start, message: "unterminated string (no closing \(quote))")
        }

        private mutating func readHex4(_ escapeColumn: Int) throws(QueryError) -> UInt32 {
            guard index + 4 <= characters.count, let value = UInt32(String(characters[index..<(index + 4)]), radix: 16) else {
                throw .syntax(column: escapeColumn, message: "\\u needs four hex digits")
            }
            index += 4
            return value
        }

        private mutating func readNumber() throws(QueryError) -> Token {
            let start = column
            var text = ""
            func isDigit(_ character: Character?) -> Bool { character.map { $0.isASCII && $0.isNumber } ?? false }
            if character() == "-" {
                text.append("-")
                index += 1
            }
            while isDigit(character()) { text.append(character()!); index += 1 }
            var isDouble = false
            if character() == ".", isDigit(character(at: 1)) {
                isDouble = true
                text.append("."); index += 1
                while isDigit(character()) { text.append(character()!); index += 1 }
            }
            if let e = character(), e == "e" || e == "E" {
                var lookahead = 1
                if let sign = character(at: 1), sign == "+" || sign == "-" { lookahead = 2 }
                if isDigit(character(at: lookahead)) {
                    isDouble = true
                    for _ in 0..<lookahead { text.append(character()!); index += 1 }
                    while isDigit(character()) { text.append(character()!); index += 1 }
                }
            }
            if let next = character(), next.isLetter || next == "_" || next == "." {
                throw .syntax(column: column, message: "unexpected '\(next)' after the number \(text)")
            }
            if isDouble {
                guard let double = Double(text), double.isFinite else {
                    throw .syntax(column: start, message: "\(text) is not a finite double")
                }
                return Token(kind: .double(double), text: text, column: start)
            }
            guard let integer = Int64(text) else {
                throw .syntax(column: start, message: "the integer \(text) does not fit in 64 bits (write \(text).0 for a double)")
            }
            return Token(kind: .integer(integer), text: text, column: start)
        }

        /// `name(.name)*` with backtick-quoted names; the result's segments are unquoted.
        private mutating func readPath() throws(QueryError) -> Token {
            let start = column
            var segments: [String] = []
            var quoted = false
            while true {
                let segmentColumn = column
                guard let first = character() else {
                    throw .syntax(column: segmentColumn, message: "expected a field name after '.'")
                }
                if first == "`" {
                    quoted = true
                    index += 1
                    var segment = ""
                    var closed = false
                    while let character = character() {
                        index += 1
                        if character == "`" {
                            closed = true
                            break
                        }
                        if character == "\\", let escaped = self.character() {
                            index += 1
                            segment.append(escaped)
                        } else {
                            segment.append(character)
                        }
                    }
                    guard closed else { throw .syntax(column: segmentColumn, message: "unterminated backtick (no closing `)") }
                    guard !segment.isEmpty else { throw .syntax(column: segmentColumn, message: "empty field name in backticks") }
                    segments.append(segment)
                } else if first == "_" || (first.isASCII && first.isLetter) {
                    var segment = ""
                    while let character = character(), character.isASCII, character.isLetter || character.isNumber || character == "_" {
                        segment.append(character)
                        index += 1
                    }
                    segments.append(segment)
                } else {
                    let hint = first.isNumber ? " (a name starting with a digit needs backticks: `\(first)…`)" : ""
                    throw .syntax(column: segmentColumn, message: "expected a field name after '.', found '\(first)'\(hint)")
                }
                guard character() == "." else { break }
                index += 1
            }
            if let next = character(), !next.isWhitespace, !"()[]{},:=!<>&|".contains(next) {
                throw .syntax(column: column, message: "unexpected '\(next)' in a field name (names other than letters, digits and _ need backticks)")
            }
            let text = String(characters[(start - 1)..<index])
            return Token(kind: .path(FieldPath(segments)), text: text, column: start, isQuoted: quoted)
        }
    }
}
