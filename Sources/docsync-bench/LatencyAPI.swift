import DocModel
import Foundation
import LoopbackHTTP

/// A loopback list + detail API with a fixed added latency per detail call, for
/// the fan-out scenario of `scripts/bench`.
///
/// `GET /list` returns `{"items":[{"id":"r0"},…]}` at once; `GET /detail?id=rK`
/// waits `latency`, then returns `{"id":"rK","detail":"…","n":K}`. The server
/// runs until standard input closes (the bench script holds a pipe open) and
/// prints its base URL on the first line of standard output.
enum LatencyAPI {
    static func serve(records: Int, latency: Duration) async throws {
        let listBody = Array(JSONValue.object(["items": .array((0..<records).map { ["id": .string("r\($0)")] })]).canonicalText.utf8)
        let server = try LoopbackHTTPServer { request in
            if request.pathWithoutQuery == "/list" {
                return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"], body: listBody)
            }
            try? await Task.sleep(for: latency)
            let id = request.query["id"] ?? ""
            let n = Int64(id.dropFirst()) ?? -1
            let body = JSONValue.object(["id": .string(id), "detail": "some detail text", "n": .int(n)]).canonicalText
            return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        // Block (off the cooperative pool) until standard input reaches end of file.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                while true {
                    var byte: UInt8 = 0
                    if read(0, &byte, 1) <= 0 { break }
                }
                continuation.resume()
            }
        }
        server.stop()
    }
}
