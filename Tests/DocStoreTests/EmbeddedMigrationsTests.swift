@testable import DocStore
import Foundation
import Testing

/// The binary carries `Migration.embedded`, generated from `migrations/*.sql`.
/// These tests keep the two identical: after editing migrations/, run
/// `scripts/generate-migrations`.
@Suite(.timeLimit(.minutes(3))) struct EmbeddedMigrationsTests {
    private func migrationFiles() throws -> [(name: String, text: String)] {
        let directory = packageRoot.appendingPathComponent("migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        return try files.map { file in
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            return (String(file.dropLast(4)), String(decoding: data, as: UTF8.self))
        }
    }

    @Test func embeddedMigrationsMatchTheMigrationsDirectory() throws {
        let files = try migrationFiles()
        #expect(!files.isEmpty)
        #expect(Migration.embedded.map(\.name) == files.map(\.name),
                "EmbeddedMigrations.swift is stale: run scripts/generate-migrations")
        for (file, embedded) in zip(files, Migration.embedded) where file.name == embedded.name {
            #expect(embedded.sql == file.text,
                    "migrations/\(file.name).sql differs from EmbeddedMigrations.swift: run scripts/generate-migrations")
        }
    }

    @Test func embeddedChecksumsAreTheSHA256OfTheirTexts() {
        for migration in Migration.embedded {
            #expect(migration.checksum == Migration(name: migration.name, sql: migration.sql).checksum,
                    "\(migration.name): stale checksum, run scripts/generate-migrations")
        }
    }

    @Test func migrationNamesAreNumberedAndOrdered() {
        let names = Migration.embedded.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names.map { $0.prefix(4) }).count == names.count, "two migrations share a number")
        for name in names {
            #expect(name.range(of: #"^[0-9]{4}_[a-z0-9_]+$"#, options: .regularExpression) != nil, "bad migration name \(name)")
        }
    }
}
