/// A shaping step written in Swift: changes one record's document in place.
///
/// Put it among a REST source's config steps (`ShapeStep.transform`) to run
/// between them, before the key is made; or in
/// `SourceDefinition.transforms` to run after any source, on the document
/// the source delivered (the key stays). A transform that throws fails that
/// record alone: it is reported with the field a `TransformError` names,
/// and its stored document stays as it was.
///
/// ```swift
/// let cents = RecordTransform("priceInCents") { document in
///     guard case .string(let text)? = document["price"] else { return }
///     guard let price = Double(text) else {
///         throw TransformError(field: "price", message: "\"\(text)\" is not a number")
///     }
///     document.set(.int(Int64((price * 100).rounded())), at: FieldPath(["priceCents"]))
/// }
/// ```
public struct RecordTransform: Sendable {
    /// Names the transform in failure messages.
    public var name: String
    private let body: @Sendable (inout JSONValue) throws -> Void

    /// - Parameters:
    ///   - name: shown in the report when the transform fails a record.
    ///   - body: changes the document (a JSON object). Throw `TransformError`
    ///     to name the field at fault; any other error fails the record with
    ///     its description and no field.
    public init(_ name: String, _ body: @escaping @Sendable (inout JSONValue) throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the transform on `document`.
    /// - Throws: `TransformError`, with the transform's name in its message.
    public func apply(to document: inout JSONValue) throws(TransformError) {
        do {
            try body(&document)
        } catch let error as TransformError {
            throw TransformError(field: error.field, message: "transform \(name): \(error.message)")
        } catch {
            throw TransformError(field: nil, message: "transform \(name): \(error)")
        }
    }
}

/// Why a `RecordTransform` failed a record, and the field at fault.
public struct TransformError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at fault (a field path such as `price` or `stock.count`), if one is.
    public var field: String?
    /// What went wrong.
    public var message: String

    /// - Parameters:
    ///   - field: the field path at fault (`price`, `stock.count`), or nil.
    ///   - message: what went wrong, shown in the report after the transform's name.
    public init(field: String?, message: String) {
        self.field = field
        self.message = message
    }

    /// `field price: message`, or the message alone.
    public var description: String {
        field.map { "field \($0): \(message)" } ?? message
    }
}
