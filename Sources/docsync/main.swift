import DocSyncCLI
import Foundation

exit(await DocSyncCLI.run(CommandLine.arguments))
