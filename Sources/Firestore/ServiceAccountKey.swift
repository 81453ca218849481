import DocModel
import FoundationEssentials

/// The fields docsync needs from a service-account JSON key file.
///
/// The private key is kept out of `description` and reflection.
public struct ServiceAccountKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    public var clientEmail: String
    public var privateKeyID: String?
    public var projectID: String?
    /// Where the signed assertion is exchanged for an access token.
    public var tokenURI: String
    let privateKeyPEM: String

    public init(clientEmail: String, privateKeyPEM: String, privateKeyID: String? = nil, projectID: String? = nil,
                tokenURI: String = "https://oauth2.googleapis.com/token")
    {
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyID = privateKeyID
        self.projectID = projectID
        self.tokenURI = tokenURI
    }

    /// Reads the JSON text of a key file (`type: "service_account"`).
    /// - Throws: `FirestoreError.authentication` naming the missing field.
    public init(json text: String) throws(FirestoreError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch {
            throw FirestoreError.authentication("the service-account key is not valid JSON (at byte \(error.offset))")
        }
        func field(_ name: String) throws(FirestoreError) -> String {
            guard let text = value[name]?.stringValue, !text.isEmpty else {
                throw FirestoreError.authentication("the service-account key has no \"\(name)\"; download a new JSON key for the service account")
            }
            return text
        }
        if let type = value["type"]?.stringValue, type != "service_account" {
            throw FirestoreError.authentication("the key file is of type \"\(type)\", not \"service_account\"")
        }
        self.init(clientEmail: try field("client_email"), privateKeyPEM: try field("private_key"),
                  privateKeyID: value["private_key_id"]?.stringValue, projectID: value["project_id"]?.stringValue,
                  tokenURI: value["token_uri"]?.stringValue ?? "https://oauth2.googleapis.com/token")
    }

    /// Reads a key file from disk.
    /// - Throws: `FirestoreError.authentication` naming the path.
    public init(contentsOfFile path: String) throws(FirestoreError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FirestoreError.authentication("cannot read the service-account key file \(path)")
        }
        do {
            try self.init(json: String(decoding: data, as: UTF8.self))
        } catch {
            if case .authentication(let message) = error {
                throw FirestoreError.authentication("\(path): \(message)")
            }
            throw error
        }
    }

    /// The signed JWT asserting this account's identity for the OAuth token exchange.
    /// - Parameters:
    ///   - issuedAt: seconds since the epoch (`iat`); `exp` is one hour later.
    /// - Throws: `FirestoreError.authentication` when the key cannot sign.
    public func makeAssertion(scopes: [String], issuedAt: Int64) throws(FirestoreError) -> String {
        var header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyID { header["kid"] = .string(privateKeyID) }
        let claims: JSONValue = [
            "iss": .string(clientEmail),
            "scope": .string(scopes.joined(separator: " ")),
            "aud": .string(tokenURI),
            "iat": .int(issuedAt),
            "exp": .int(issuedAt + 3600),
        ]
        let signingInput = Base64URL.encode(JSONValue.object(header).canonicalBytes) + "." + Base64URL.encode(claims.canonicalBytes)
        let signature = try RS256Signer.sign(Array(signingInput.utf8), privateKeyPEM: privateKeyPEM)
        return signingInput + "." + Base64URL.encode(signature)
    }

    public var description: String { "ServiceAccountKey(\(clientEmail), private key redacted)" }

    public var customMirror: Mirror { Mirror(self, children: ["clientEmail": clientEmail], displayStyle: .struct) }
}

/// Base64url without padding, as JWTs use it.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacing("+", with: "-").replacing("/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func decode(_ text: String) -> [UInt8]? {
        FirestoreValueCodec.decodeBase64(text).map { [UInt8]($0) }
    }
}
