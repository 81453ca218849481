import Testing

extension Tag {
    /// Uses real SQLite files, several connections or processes.
    @Tag static var integration: Self
}
