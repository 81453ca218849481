import DocModel
import Firestore
import FoundationEssentials
import HTTP

/// Builds the Firestore client a run pushes through.
public enum FirestoreTarget {
    /// The client for `target` (or, without one, for `--project`/`GOOGLE_CLOUD_PROJECT`).
    ///
    /// `FIRESTORE_EMULATOR_HOST` selects the emulator exactly as the official SDKs do,
    /// and wins over the config's `emulatorHost`.
    /// - Throws: `FirestoreError.authentication` when credentials cannot be set up,
    ///   `SyncError.noTarget` when no project is known.
    public static func makeClient(
        target: TargetConfig?, projectOverride: String?, databaseOverride: String?, policy: SyncPolicy,
        environment: [String: String], meter: TransferMeter?, requestLog: (@Sendable (RequestLogEntry) -> Void)?
    ) throws -> FirestoreClient {
        guard let projectID = projectOverride ?? target?.projectID ?? environment["GOOGLE_CLOUD_PROJECT"] else {
            throw SyncError.noTarget
        }
        let database = FirestoreDatabase(projectID: projectID, databaseID: databaseOverride ?? target?.databaseID ?? "(default)")
        var endpoint = FirestoreEndpoint.fromEnvironment(environment)
        if endpoint == .production, let host = target?.emulatorHost { endpoint = .emulator(host: host) }
        let credentials: FirestoreCredentials
        switch target?.credentials ?? .automatic {
        case _ where endpoint.isEmulator: credentials = .emulatorOwner
        case .automatic: credentials = try FirestoreCredentials.fromEnvironment(environment, endpoint: endpoint)
        case .accessTokenVariable(let name): credentials = try .accessToken(environmentVariable: name, environment: environment)
        case .accessTokenCommand(let command): credentials = .command(command)
        case .serviceAccountKey(let path): credentials = try .serviceAccount(keyFile: path)
        }
        var options = FirestoreClientOptions(maxWritesPerBatch: policy.batchSize, maxBatchesInFlight: policy.concurrency,
                                             rampUp: !endpoint.isEmulator, requestLog: requestLog)
        options.rampUp = !endpoint.isEmulator
        let transport = meter.map { $0.wrap(.live) } ?? .live
        return FirestoreClient(database: database, endpoint: endpoint, credentials: credentials, options: options, transport: transport)
    }
}
