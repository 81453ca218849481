import DocModel

/// A text with placeholders: `{name}` for a value docsync supplies (a page
/// number, a record field) and `${NAME}` for an environment variable.
///
/// `{{` and `}}` stand for literal braces. Values from the environment count as
/// secrets: they are sent, but never shown (see `Redactor`).
///
/// ```swift
/// let path = try Template(parsing: "/api/${FOOD_KEY}/COOKRCP01/json/{start}/{end}")
/// path.variables              // ["start", "end"]
/// path.environmentVariables   // ["FOOD_KEY"]
/// ```
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Sendable, Hashable {
        case literal(String)
        /// `{name}`: a value supplied at render time (page number, record field path…).
        case variable(String)
        /// `${NAME}`: an environment variable.
        case environment(String)
    }

    /// The pieces in order.
    public let parts: [Part]
    /// The text the template was parsed from.
    public let description: String

    /// Parses `text`; the error message says what is wrong (the caller adds the path).
    public init(parsing text: String) throws(TemplateSyntaxError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        func flush() { if !literal.isEmpty { parts.append(.literal(literal)); literal = "" } }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "$", next < text.endIndex, text[next] == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw TemplateSyntaxError(message: "unterminated \"${\" in \"\(text)\"")
                }
                let name = String(text[text.index(after: next)..<close])
                guard Template.isEnvironmentName(name) else {
                    throw TemplateSyntaxError(message: "\"${\(name)}\" is not a valid environment variable name (letters, digits and _, not starting with a digit)")
                }
                flush()
                parts.append(.environment(name))
                index = text.index(after: close)
            } else if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw TemplateSyntaxError(message: "unterminated \"{\" in \"\(text)\" (write \"{{\" for a literal brace)")
                }
                let name = String(text[next..<close]).trimmingWhitespace()
                guard !name.isEmpty else { throw TemplateSyntaxError(message: "empty placeholder \"{}\" in \"\(text)\"") }
                flush()
                parts.append(.variable(name))
                index = text.index(after: close)
            } else if character == "}" {
                if next < text.endIndex, text[next] == "}" {
                    literal.append("}")
                    index = text.index(after: next)
                    continue
                }
                throw TemplateSyntaxError(message: "unmatched \"}\" in \"\(text)\" (write \"}}\" for a literal brace)")
            } else {
                literal.append(character)
                index = next
            }
        }
        flush()
        self.parts = parts
        self.description = text
    }

    /// The `{name}` placeholders in order of appearance.
    public var variables: [String] {
        parts.compactMap { if case .variable(let name) = $0 { return name }; return nil }
    }

    /// The `${NAME}` placeholders in order of appearance.
    public var environmentVariables: [String] {
        parts.compactMap { if case .environment(let name) = $0 { return name }; return nil }
    }

    /// Whether the template has no placeholders.
    public var isConstant: Bool { parts.allSatisfy { if case .literal = $0 { return true }; return false } }

    /// Renders the template. `value` supplies `{name}` placeholders (nil: missing);
    /// `encode` is applied to supplied and environment values, `encodeLiteral` to literal text.
    func render(
        value: (String) -> String?,
        environment: [String: String],
        encode: (String) -> String = { $0 },
        encodeLiteral: (String) -> String = { $0 }
    ) throws(TemplateRenderError) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .literal(let text): result += encodeLiteral(text)
            case .variable(let name):
                guard let text = value(name) else { throw TemplateRenderError(missing: name, isEnvironment: false) }
                result += encode(text)
            case .environment(let name):
                guard let text = environment[name] else { throw TemplateRenderError(missing: name, isEnvironment: true) }
                result += encode(text)
            }
        }
        return result
    }

    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}

/// Why a template's text cannot be parsed.
public struct TemplateSyntaxError: Error, Sendable {
    public var message: String
}

/// A placeholder had no value at render time.
struct TemplateRenderError: Error {
    var missing: String
    var isEnvironment: Bool
}

