import DocModel
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ShardTests {
    @Test func theHashIsFNV1a64OfTheUTF8Bytes() {
        // Published FNV-1a 64 test vectors.
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func parsesIndexSlashCount() {
        #expect(Shard(parsing: "1/3") == Shard(index: 1, count: 3))
        for bad in ["3/3", "-1/3", "1/0", "1", "a/b", "1/3/4", ""] {
            #expect(Shard(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func everyKeyFallsInExactlyOneShard() {
        let shards = (0..<4).compactMap { Shard(index: $0, count: 4) }
        for key in (0..<500).map({ "key-\($0)" }) {
            #expect(shards.filter { $0.contains(key: key) }.count == 1)
        }
    }
}
