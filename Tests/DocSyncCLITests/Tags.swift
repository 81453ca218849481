import Testing

extension Tag {
    /// Runs the built `docsync` executable as a separate process.
    @Tag static var endToEnd: Self
    /// Uses a real SQLite file and a large input.
    @Tag static var integration: Self
}
