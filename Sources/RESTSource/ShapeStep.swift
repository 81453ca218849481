import DocModel

/// One shaping step, applied to every record in config order.
public enum ShapeStep: Sendable {
    /// Keep only these fields (nested paths keep their parents).
    case pick([FieldPath])
    /// Move fields; a missing source field is ignored.
    case rename([FieldRename])
    /// Remove fields.
    case drop([FieldPath])
    /// Set fields to constants or templates of other fields.
    case set([FieldAssignment])
    /// Turn HTML in string fields into plain text (see `HTMLText`).
    case htmlToText([FieldPath])
    /// Trim whitespace around string fields.
    case trim([FieldPath])
    /// Cut labelled sections ("Key Notes: …") out of a text field into fields.
    case sections(SectionsStep)
    /// Split string fields into arrays.
    case split(SplitStep)
    /// Convert field types (numbers, booleans, timestamps).
    case convert(ConvertStep)
    /// A step written in Swift, run in its place among the config's steps
    /// (insert it into `SourceConfig.shape`); its errors fail the record and
    /// name the field.
    case transform(RecordTransform)
}

/// `set`: one field and its new value.
public struct FieldAssignment: Sendable {
    public enum Value: Sendable {
        case constant(JSONValue)
        /// Rendered with `{field.path}` placeholders; a missing field fails the record.
        case template(Template)
    }
    public var field: FieldPath
    public var value: Value

    public init(field: FieldPath, value: Value) {
        self.field = field
        self.value = value
    }
}

/// `sections`: labels to find in a text field and the fields they go to.
public struct SectionsStep: Sendable {
    public struct Label: Sendable, Hashable {
        /// The label as written before the colon, matched case-insensitively.
        public var label: String
        public var field: FieldPath

        public init(label: String, field: FieldPath) {
            self.label = label
            self.field = field
        }
    }
    public var from: FieldPath
    public var labels: [Label]
    /// Remove the source field afterwards.
    public var dropSource: Bool

    public init(from: FieldPath, labels: [Label], dropSource: Bool = false) {
        self.from = from
        self.labels = labels
        self.dropSource = dropSource
    }
}

/// `split`: a string field becomes an array of strings.
public struct SplitStep: Sendable {
    public var fields: [FieldPath]
    /// Any of these separates items; `"\n"` splits lines.
    public var separators: [String]
    /// Trim whitespace around items (default true).
    public var trim: Bool
    /// Drop items that end up empty (default true).
    public var dropEmpty: Bool
    /// Remove trailing `.`, `,`, `;`, `:` and `!` from items (default true).
    public var stripTrailingPunctuation: Bool

    public init(fields: [FieldPath], separators: [String], trim: Bool = true, dropEmpty: Bool = true,
                stripTrailingPunctuation: Bool = true) {
        self.fields = fields
        self.separators = separators
        self.trim = trim
        self.dropEmpty = dropEmpty
        self.stripTrailingPunctuation = stripTrailingPunctuation
    }
}

/// `convert`: change the type of fields.
public struct ConvertStep: Sendable {
    public enum Target: String, Sendable, CaseIterable {
        /// Integer text to an integer, other numeric text to a double.
        case number
        case int
        case double
        case bool
        case string
        /// RFC 3339 / ISO 8601 date text to `{"$timestamp": "…Z"}` (UTC, at most µs).
        case timestamp
        /// Seconds since 1970 (number or text) to a timestamp.
        case epochSeconds
        /// Milliseconds since 1970 (number or text) to a timestamp.
        case epochMillis
    }
    /// What to do with an empty string.
    public enum EmptyPolicy: String, Sendable { case null, drop, keep, fail }
    public var fields: [FieldPath]
    public var to: Target
    /// Characters removed before converting (such as `"$,"` for `"$1,284.00"`).
    public var stripCharacters: String
    public var empty: EmptyPolicy

    public init(fields: [FieldPath], to: Target, stripCharacters: String = "", empty: EmptyPolicy = .null) {
        self.fields = fields
        self.to = to
        self.stripCharacters = stripCharacters
        self.empty = empty
    }
}
