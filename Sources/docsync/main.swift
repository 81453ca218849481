#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocSyncCLI

exit(await DocSyncCLI.run(CommandLine.arguments))
