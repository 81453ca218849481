import Testing

extension Tag {
    /// Needs the Firestore emulator or another real process.
    @Tag static var integration: Tag
}
