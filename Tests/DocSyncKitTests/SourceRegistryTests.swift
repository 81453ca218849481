import DocModel
import DocStore
import DocSync
import Foundation
import Testing

/// `"type": "swift"` entries in a config, resolved through a `SourceRegistry`.
@Suite("Swift sources named in a config", .timeLimit(.minutes(2)))
struct SourceRegistryTests {
    static let config = #"""
        {"sources": [{"type": "swift", "name": "cities", "collection": "Cities", "options": {"prefix": "c-"}}]}
        """#

    @Test func configNamesARegisteredSwiftSource() async throws {
        var registry = SourceRegistry()
        registry.register("cities") { options in
            let prefix = options["prefix"]?.stringValue ?? ""
            return FixedSource([(prefix + "osl", ["name": "Oslo"]), (prefix + "ber", ["name": "Berlin"])])
        }
        let config = try SyncConfig.decode(JSONValue(parsing: Self.config), swiftSources: registry)
        #expect(config.sources.map(\.name) == ["cities"])
        #expect(config.sources.first?.restConfig == nil)
        let engine = try SyncEngine(store: try DocumentStore(path: ":memory:"), sources: config.sources, target: nil, environment: [:])
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        #expect(report.sources.first?.changes.map(\.id).sorted() == ["c-ber", "c-osl"])
    }

    @Test func unregisteredNameIsAConfigErrorAtItsPath() throws {
        let json = try JSONValue(parsing: Self.config)
        do {
            _ = try SyncConfig.decode(json)
            Issue.record("expected a config error")
        } catch {
            #expect(error.path == "sources[0].name")
            #expect(error.message.hasPrefix("no Swift source named \"cities\" is registered; this program registers none"))
        }
    }

    @Test func unknownKeyOfASwiftSourceIsAConfigError() throws {
        var registry = SourceRegistry()
        registry.register("cities") { _ in FixedSource([]) }
        let json = #"{"sources": [{"type": "swift", "name": "cities", "collection": "Cities", "baseURL": "https://x"}]}"#
        #expect(throws: ConfigError.self) { try SyncConfig.decode(JSONValue(parsing: json), swiftSources: registry) }
    }

    @Test func factoryErrorIsReportedUnderOptions() throws {
        var registry = SourceRegistry()
        registry.register("cities") { options in
            guard options["prefix"]?.stringValue == "ok" else { throw ConfigError(path: "prefix", message: "expected \"ok\"") }
            return FixedSource([])
        }
        let json = try JSONValue(parsing: Self.config)
        do {
            _ = try SyncConfig.decode(json, swiftSources: registry)
            Issue.record("expected a config error")
        } catch {
            #expect(error.description == "sources[0].options.prefix: expected \"ok\"")
        }
    }
}
