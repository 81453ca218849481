import DocModel
import Testing

@Suite(.timeLimit(.minutes(3))) struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func digestMatchesFIPSVectors(input: String, expected: String) {
        #expect(SHA256.hexDigest(input.utf8) == expected)
    }

    @Test func digestOfAMillionAsMatchesFIPSVector() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(input) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func messagesAroundTheBlockBoundaryDiffer() {
        // 55, 56 and 64 bytes exercise the padding branches.
        let digests = [55, 56, 63, 64, 65].map { SHA256.hexDigest([UInt8](repeating: 0x61, count: $0)) }
        #expect(Set(digests).count == 5)
        #expect(SHA256.hexDigest([UInt8](repeating: 0x61, count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }
}
