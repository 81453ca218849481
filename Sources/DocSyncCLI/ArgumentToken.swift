/// Stage 1 of parsing: one command-line word classified, with no knowledge of
/// any command.
///
/// - `--name` and `--name=value` are long options;
/// - `-abc` is a cluster of short options (`-k value` or `-kvalue` for values);
/// - `-`, negative numbers and everything else are values;
/// - after `--`, every word is a value.
enum ArgumentToken: Equatable, Sendable {
    case longOption(name: String, value: String?)
    case shortOptions(String)
    case value(String)

    /// Splits `arguments` (without the program name) into tokens.
    static func tokenize(_ arguments: [String]) -> [ArgumentToken] {
        var tokens: [ArgumentToken] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if word == "--" {
                tokens += arguments[index...].map(ArgumentToken.value)
                break
            }
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    tokens.append(.longOption(name: String(body[..<equals]), value: String(body[body.index(after: equals)...])))
                } else {
                    tokens.append(.longOption(name: String(body), value: nil))
                }
            } else if word.hasPrefix("-"), word.count > 1, !isNumber(word) {
                tokens.append(.shortOptions(String(word.dropFirst())))
            } else {
                tokens.append(.value(word))
            }
        }
        return tokens
    }

    private static func isNumber(_ word: String) -> Bool {
        Double(word) != nil
    }
}
