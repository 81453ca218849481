@testable import DocStore
import Foundation
import Testing

/// `schema/schema.sql` is the schema an empty store gets from the migrations.
@Suite(.timeLimit(.minutes(3))) struct SchemaFileTests {
    @Test func schemaFileMatchesAMigratedEmptyStore() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: Migration.embedded).migrate(db)
        let actual = try Migrator.schemaText(db)
        let url = packageRoot.appendingPathComponent("schema/schema.sql")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(actual.utf8).write(to: url)
        }
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(actual == expected, "schema/schema.sql is stale: run scripts/generate-migrations")
    }
}
