import Testing

extension Tag {
    /// Uses the Firestore emulator.
    @Tag static var integration: Self
}
