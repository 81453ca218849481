import DocModel

/// Applies a source's shaping steps and key rule to one record.
///
/// Pure and synchronous: no I/O, so every step can be unit-tested on values.
public struct Shaper: Sendable {
    public var steps: [ShapeStep]
    public var key: KeyRule

    public init(steps: [ShapeStep], key: KeyRule) {
        self.steps = steps
        self.key = key
    }

    /// Why one record could not be shaped or keyed.
    public struct Failure: Error, Sendable, Equatable {
        public var field: String?
        public var message: String

        public init(field: String?, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// The shaped document and its key.
    /// - Throws: `Shaper.Failure` naming the field, e.g. a number that does not parse
    ///   or a missing key field.
    public func shape(_ record: JSONValue) throws(Failure) -> (key: String, document: JSONValue) {
        var document = record
        for step in steps { try apply(step, to: &document) }
        let key = try makeKey(document)
        do {
            try DocumentID.validate(key)
        } catch {
            throw Failure(field: keyField, message: "key \"\(ValueConversion.shortened(key))\" is not a valid document id: \(error.reason)")
        }
        return (key, document)
    }

    private var keyField: String? {
        if case .field(let path) = key { return path.description }
        return nil
    }

    /// Applies one step.
    public func apply(_ step: ShapeStep, to document: inout JSONValue) throws(Failure) {
        switch step {
        case .pick(let paths):
            document = document.picking(paths)
        case .rename(let renames):
            for rename in renames {
                guard let value = document.remove(at: rename.from) else { continue }
                guard document.set(value, at: rename.to) else {
                    throw Failure(field: rename.to.description, message: "cannot rename \(rename.from) to \(rename.to): a parent of the target is not an object")
                }
            }
        case .drop(let paths):
            for path in paths { document.remove(at: path) }
        case .set(let assignments):
            for assignment in assignments {
                let value: JSONValue
                switch assignment.value {
                case .constant(let constant): value = constant
                case .template(let template): value = .string(try render(template, with: document, field: assignment.field.description))
                }
                guard document.set(value, at: assignment.field) else {
                    throw Failure(field: assignment.field.description, message: "cannot set \(assignment.field): a parent is not an object")
                }
            }
        case .htmlToText(let paths):
            for path in paths {
                guard let value = document[path] else { continue }
                guard case .string(let html) = value else {
                    if value.isNull { continue }
                    throw Failure(field: path.description, message: "htmlToText expects a string, found \(value.kindName)")
                }
                document.set(.string(HTMLText.plainText(html)), at: path)
            }
        case .trim(let paths):
            for path in paths {
                if case .string(let text)? = document[path] { document.set(.string(text.trimmingWhitespace()), at: path) }
            }
        case .sections(let step):
            guard let value = document[step.from], !value.isNull else { break }
            guard case .string(let text) = value else {
                throw Failure(field: step.from.description, message: "sections expects a string, found \(value.kindName)")
            }
            let found = TextSections.extract(text, labels: step.labels.map(\.label))
            if step.dropSource { document.remove(at: step.from) }
            for label in step.labels {
                if let sectionText = found[label.label] {
                    document.set(.string(sectionText), at: label.field)
                } else {
                    document.remove(at: label.field)
                }
            }
        case .split(let step):
            for path in step.fields {
                guard case .string(let text)? = document[path] else { continue }
                document.set(.array(Self.split(text, step).map { .string($0) }), at: path)
            }
        case .transform(let transform):
            do {
                try transform.apply(to: &document)
            } catch {
                throw Failure(field: error.field, message: error.message)
            }
        case .convert(let step):
            for path in step.fields {
                guard let value = document[path], !value.isNull else { continue }
                if let converted = try convert(value, step, field: path) {
                    document.set(converted, at: path)
                } else {
                    document.remove(at: path)
                }
            }
        }
    }

    /// The converted value; nil when an empty string is to be dropped.
    private func convert(_ value: JSONValue, _ step: ConvertStep, field: FieldPath) throws(Failure) -> JSONValue? {
        if case .array(let elements) = value {
            var converted: [JSONValue] = []
            for element in elements {
                if let item = try convert(element, step, field: field) { converted.append(item) }
            }
            return .array(converted)
        }
        var input = value
        if case .string(var text) = value {
            if !step.stripCharacters.isEmpty { text.removeAll { step.stripCharacters.contains($0) } }
            if text.trimmingWhitespace().isEmpty, step.to != .string {
                switch step.empty {
                case .null: return .null
                case .drop: return nil
                case .keep: return value
                case .fail: throw Failure(field: field.description, message: "is empty; cannot convert to \(step.to.rawValue)")
                }
            }
            input = .string(text)
        }
        switch ValueConversion.convert(input, to: step.to) {
        case .success(let converted): return converted
        case .failure(let failure):
            throw Failure(field: field.description, message: "cannot convert to \(step.to.rawValue): \(failure.message)")
        }
    }

    /// Splits `text` on any of the separators, then trims, strips and drops empties as configured.
    public static func split(_ text: String, _ step: SplitStep) -> [String] {
        var items: [String] = []
        var current = ""
        var index = text.startIndex
        outer: while index < text.endIndex {
            for separator in step.separators where text[index...].hasPrefix(separator) {
                items.append(current)
                current = ""
                index = text.index(index, offsetBy: separator.count)
                continue outer
            }
            current.append(text[index])
            index = text.index(after: index)
        }
        items.append(current)
        return items.compactMap { item in
            var item = item
            if step.trim { item = item.trimmingWhitespace() }
            if step.stripTrailingPunctuation {
                while let last = item.last, ".,;:!".contains(last) { item.removeLast() }
                if step.trim { item = item.trimmingWhitespace() }
            }
            return step.dropEmpty && item.isEmpty ? nil : item
        }
    }

    /// The document's key according to the key rule.
    public func makeKey(_ document: JSONValue) throws(Failure) -> String {
        switch key {
        case .field(let path):
            guard let value = document[path], !value.isNull else {
                throw Failure(field: path.description, message: "key field \(path) is missing")
            }
            guard let text = RESTSource.scalarText(value) else {
                throw Failure(field: path.description, message: "key field \(path) is \(value.kindName), expected a string or integer")
            }
            return text
        case .template(let template):
            return try render(template, with: document, field: nil)
        case .hash(let paths):
            var members: [String: JSONValue] = [:]
            for path in paths { members[path.description] = document[path] ?? .null }
            if members.values.allSatisfy(\.isNull) {
                throw Failure(field: paths.first?.description, message: "all key fields (\(paths.map(\.description).joined(separator: ", "))) are missing")
            }
            return String(SHA256.hexDigest(JSONValue.object(members).canonicalBytes).prefix(32))
        }
    }

    private func render(_ template: Template, with document: JSONValue, field: String?) throws(Failure) -> String {
        do {
            return try template.render(value: { name in
                guard let path = try? FieldPath(parsing: name), let value = document[path] else { return nil }
                return RESTSource.scalarText(value)
            }, environment: [:])
        } catch {
            throw Failure(field: field ?? error.missing, message: "template \"\(template)\" needs field \(error.missing), which is missing or not a scalar")
        }
    }
}
