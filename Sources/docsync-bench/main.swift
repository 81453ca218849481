import Foundation

// Benchmark helpers (not shipped): `docsync-bench json` runs the JSON
// micro-benchmarks; `docsync-bench serve-api RECORDS LATENCY_MS` serves the
// loopback API of the fan-out scenario; `docsync-bench push` runs the engine's
// push and `docsync-bench pull` its dry run, in-process (see scripts/bench).
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "json", nil:
    try JSONMicroBenchmark.run()
case "json-core":
    try JSONMicroBenchmark.run(includeFoundation: false)
case "serve-api":
    let values = arguments.dropFirst().compactMap { Int($0) }
    guard values.count == 2 else {
        FileHandle.standardError.write(Data("usage: docsync-bench serve-api RECORDS LATENCY_MS\n".utf8))
        exit(64)
    }
    try await LatencyAPI.serve(records: values[0], latency: .milliseconds(values[1]))
case "push":
    let values = Array(arguments.dropFirst())
    guard values.count == 2 else {
        FileHandle.standardError.write(Data("usage: docsync-bench push STORE PROJECT\n".utf8))
        exit(64)
    }
    do {
        try await EnginePush.run(storePath: values[0], project: values[1])
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
case "pull":
    let values = Array(arguments.dropFirst())
    guard values.count == 1 else {
        FileHandle.standardError.write(Data("usage: docsync-bench pull CONFIG\n".utf8))
        exit(64)
    }
    do {
        try await EnginePull.run(configPath: values[0])
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
case "query":
    let values = Array(arguments.dropFirst())
    guard values.count == 3 || values.count == 4, let runs = Int(values[1]), runs > 0 else {
        FileHandle.standardError.write(Data("usage: docsync-bench query STORE RUNS CASES [SQL_OUT]\n".utf8))
        exit(64)
    }
    try await QueryBench.run(storePath: values[0], runs: runs, casesPath: values[2], compiledSQLPath: values.count == 4 ? values[3] : nil)
case "confirm-all":
    let values = Array(arguments.dropFirst())
    guard values.count == 1 else {
        FileHandle.standardError.write(Data("usage: docsync-bench confirm-all STORE\n".utf8))
        exit(64)
    }
    try await ConfirmAll.run(storePath: values[0])
default:
    FileHandle.standardError.write(Data("usage: docsync-bench [json | json-core | serve-api RECORDS LATENCY_MS | push STORE PROJECT | pull CONFIG | confirm-all STORE | query STORE RUNS CASES [SQL_OUT]]\n".utf8))
    exit(64)
}
