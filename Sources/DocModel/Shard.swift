/// One worker's part of a source: the records whose key hashes to `index`
/// out of `count` (`docsync sync --shard INDEX/COUNT`, 0-based).
///
/// The hash is FNV-1a 64 of the key's UTF-8 bytes (offset basis
/// 0xcbf29ce484222325, prime 0x100000001b3), taken modulo `count`: stable
/// across runs, machines and docsync versions, and cheap. The key is the
/// document id the source's `key` rule gives.
///
/// ```swift
/// let shard = try #require(Shard(parsing: "1/3"))
/// shard.contains(key: "SKU-42")
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// nil unless `0 <= index < count` and `1 <= count <= 10_000`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= 10_000, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `INDEX/COUNT`, such as `0/4`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `INDEX/COUNT`.
    public var description: String { "\(index)/\(count)" }

    /// FNV-1a 64 of `key`'s UTF-8 bytes.
    public static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The shard index `key` belongs to among `count` shards.
    public static func index(of key: String, count: Int) -> Int {
        Int(hash(key) % UInt64(count))
    }

    /// True when `key` belongs to this shard.
    public func contains(key: String) -> Bool {
        Self.index(of: key, count: count) == index
    }
}
