#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocSyncCLI
import Foundation
import Testing
import TestSupport

/// docsync has no option to turn TLS certificate checks off, and no code that does.
@Suite(.timeLimit(.minutes(3))) struct TLSTests {
    /// Words that appear in Swift code that accepts any certificate (a URLSession
    /// delegate answering server-trust challenges, libcurl's verify switches).
    static let bypassMarkers = [
        "URLAuthenticationChallenge", "serverTrust", "NSURLAuthenticationMethodServerTrust", "SecTrust", "CURLOPT_SSL_VERIFY",
        "SSL_VERIFY", "allowsInvalidCertificates", "insecure", "disableTLS", "verifyPeer",
    ]

    @Test func noSourceFileAcceptsUntrustedCertificates() throws {
        let sources = DocsyncBinary.packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".h") } ?? []
        #expect(files.count > 50, "found the sources")
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for marker in Self.bypassMarkers {
                #expect(!text.localizedCaseInsensitiveContains(marker), "\(file) mentions \(marker)")
            }
        }
    }

    /// A real TLS server with a self-signed certificate (`openssl s_server`): the pull
    /// is refused, with a message that says why.
    @Test(.enabled(if: TLSTests.openssl != nil, "skipped: openssl not found")) 
    func aSelfSignedCertificateIsRefused() async throws {
        let directory = try TemporaryDirectory("tls")
        let openssl = try #require(Self.openssl)
        let made = await ChildProcess.exitStatus(of: openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.path("key.pem"),
                                                "-out", directory.path("cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1",
                                                "-addext", "subjectAltName=IP:127.0.0.1"])
        #expect(made == 0)
        let probe = try LoopbackHTTPServer { _ in .text("") }
        let port = probe.port
        probe.stop()
        let server = try ChildProcess(openssl, ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory.path("cert.pem"),
                                                "-key", directory.path("key.pem"), "-www", "-quiet"], in: directory.url.path)
        defer { server.kill() }
        while !Self.accepts(port) && !server.hasExited { try await Task.sleep(for: .milliseconds(50)) }

        let config = try directory.write("""
            {"sources": [{"name": "secure", "collection": "Secure", "baseURL": "https://127.0.0.1:\(port)",
              "list": {"path": "/items", "records": "items"}, "key": "id", "http": {"retries": 0, "timeoutSeconds": 10}}]}
            """, to: "docsync.json")
        let out = OutputBuffer(), err = OutputBuffer()
        let status = await DocSyncCLI.execute(
            ["docsync", "sync", "--config", config, "--store", directory.path("s.sqlite"), "--no-push", "--format", "json", "--quiet"],
            environment: Environment(stdout: out.sink, stderr: err.sink, currentDirectory: directory.url.path))
        // Exit 1, not 3 (no record succeeded) nor 75 (waiting does not fix a certificate).
        #expect(status == .failure, "\(out.text) \(err.text)")
        #expect(out.text.contains(#""pullFailure":{"#), "\(out.text)")
        #expect(out.text.contains(#""pullError":"request to https://127.0.0.1:\#(port)/items failed: "#), "\(out.text)")
        #expect(out.text.localizedCaseInsensitiveContains("certificate"), "the message says the certificate was the problem: \(out.text)")

        server.kill()
        #expect(await server.ends(within: .seconds(5)), "no openssl s_server is left behind")
    }

    static let openssl: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when something accepts TCP connections on 127.0.0.1:port.
    static func accepts(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
