@testable import DocSyncCLI
import DocModel
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ShardSelectionTests {
    @Test func theOptionWinsThenCloudRunThenIndexedJobs() throws {
        #expect(try ShardSelection.resolve(shard: "1/3", shardCount: nil, variables: ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "4"])
                == Shard(index: 1, count: 3))
        #expect(try ShardSelection.resolve(shard: nil, shardCount: nil, variables: ["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "4"])
                == Shard(index: 2, count: 4))
        #expect(try ShardSelection.resolve(shard: nil, shardCount: "4", variables: ["JOB_COMPLETION_INDEX": "3"]) == Shard(index: 3, count: 4))
        #expect(try ShardSelection.resolve(shard: nil, shardCount: nil, variables: ["JOB_COMPLETION_INDEX": "3"]) == nil,
                "an Indexed Job index alone does not shard")
        #expect(try ShardSelection.resolve(shard: nil, shardCount: nil, variables: ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "1"]) == nil,
                "one task is the whole source")
        #expect(try ShardSelection.resolve(shard: nil, shardCount: nil, variables: [:]) == nil)
    }

    @Test func nonsenseIsAUsageError() {
        for (shard, count, variables) in [("4/4", nil, [:]), (nil, "4", [:]), (nil, "4", ["JOB_COMPLETION_INDEX": "4"])] as [(String?, String?, [String: String])] {
            #expect(throws: UserFacingError.self) { try ShardSelection.resolve(shard: shard, shardCount: count, variables: variables) }
        }
    }
}
