@testable import DocSyncCLI
import DocStore
import DocSync
import Testing

/// Libraries describe errors; the CLI adds what to do, in terms of its own flags.
@Suite(.timeLimit(.minutes(1))) struct UserFacingErrorTests {
    @Test func storeProblemsGetTheCLIsHint() {
        let inUse = UserFacingError(DocStoreError.storeInUse(path: "s.sqlite", pid: 42))
        #expect(inUse.status == .temporaryFailure)
        #expect(inUse.hint?.contains("--wait") == true)
        let edited = UserFacingError(DocStoreError.editedMigration(name: "0001_documents", path: "s.sqlite"))
        #expect(edited.hint?.contains("migrations/0001_documents.sql") == true)
        #expect(!DocStoreError.storeInUse(path: "s.sqlite", pid: 42).description.contains("--"), "the library names no flag")
    }

    @Test func engineProblemsGetTheCLIsHint() {
        let noTarget = UserFacingError(SyncError.noTarget)
        #expect(noTarget.message == "no Firestore target is configured")
        #expect(noTarget.hint?.contains("--project") == true)
        let conflict = UserFacingError(SyncError.conflict(path: "Perfume/P1"))
        #expect(conflict.hint?.contains("--conflicts overwrite or skip") == true)
    }
}
