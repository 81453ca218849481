import DocSyncCLI
import DocSyncDemo
import Foundation

// `docsync demo` with the demo linked in: the same parsing, help and exit
// statuses as `docsync demo`, which launches this executable.
var environment = Environment.live
environment.demo = SampleDemo.runner
exit(await DocSyncCLI.run(["docsync", "demo"] + CommandLine.arguments.dropFirst(), environment: environment))
