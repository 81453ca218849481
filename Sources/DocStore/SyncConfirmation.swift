import DocModel

/// What the remote confirmed for one document after a push.
public struct SyncConfirmation: Sendable, Equatable {
    public var path: DocumentPath
    /// Canonical text Firestore confirmed; nil = confirmed delete.
    public var pushedData: String?
    /// The remote update time from the write result.
    public var updateTime: String?

    public init(path: DocumentPath, pushedData: String?, updateTime: String?) {
        self.path = path
        self.pushedData = pushedData
        self.updateTime = updateTime
    }
}
