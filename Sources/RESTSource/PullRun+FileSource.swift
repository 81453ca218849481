import DocModel
import FoundationEssentials

/// The local file source: a JSON document, or NDJSON streamed line by line.
extension PullRun {
    func readFile(_ file: FileInput, emitter: inout OrderedEmitter, group: inout ThrowingTaskGroup<(Int, Outcome), Error>) async throws {
        emitter.summary.pages += 1
        let handle: OpenFile
        do { handle = try OpenFile(reading: file.path) } catch {
            throw SourceError.file(path: file.path, reason: error.code == SystemError.noSuchFile ? "no such file or not readable" : error.description)
        }
        if file.format == .json {
            let bytes: [UInt8]
            do { bytes = try handle.readToEnd() } catch {
                throw SourceError.file(path: file.path, reason: error.description)
            }
            let body: JSONValue
            do { body = try JSONValue(parsing: bytes) } catch {
                throw SourceError.file(path: file.path, reason: "invalid JSON: \(error.description)")
            }
            for item in try select(file.records, from: body, origin: file.path, prefix: "file") {
                try await emitter.submit(item, run: self, group: &group)
            }
            return
        }
        if config.detail == nil {
            // Nothing to wait for per record: parse, shape and write canonical text on every core.
            try await readLinesInParallel(file, handle: handle, emitter: &emitter)
            return
        }
        try await forEachLine(of: handle, path: file.path) { line, number in
            guard let item = try jsonLineItem(line, number: number, locator: "line \(number)",
                                              invalid: { SourceError.file(path: file.path, reason: $0) }) else { return }
            try await emitter.submit(item, run: self, group: &group)
        }
    }

    /// Calls `body` with every line of `handle` and its 1-based number, reading
    /// 1 MiB at a time through `LineSplitter`.
    func forEachLine(of handle: OpenFile, path: String, _ body: (ArraySlice<UInt8>, Int) async throws -> Void) async throws {
        var splitter = LineSplitter()
        while true {
            try Task.checkCancellation()
            let chunk: [UInt8]
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw SourceError.file(path: path, reason: error.description)
            }
            if chunk.isEmpty { break }
            let first = splitter.lineCount + 1
            for (offset, range) in splitter.append(chunk).enumerated() {
                try await body(splitter.buffer[range], first + offset)
            }
        }
        if let last = splitter.finish() { try await body(splitter.buffer[last], splitter.lineCount) }
    }

    /// One NDJSON line as a list entry; nil for a blank line.
    /// - Throws: `invalid(reason)` when the line is not JSON.
    func jsonLineItem(_ line: ArraySlice<UInt8>, number: Int, locator: String, invalid: (String) -> SourceError) throws -> Item? {
        if LineSplitter.isBlank(line) { return nil }
        let value: JSONValue
        do { value = try JSONValue(parsing: line) } catch {
            throw invalid("line \(number) is not valid JSON: \(error.description)")
        }
        if case .object = value { return Item(row: value, locator: locator) }
        return nonObjectItem(value, locator: locator, key: nil, policy: .skip)
    }

    /// Lines of an NDJSON file cut into batches; each batch is parsed, shaped and
    /// written as canonical text by a task of its own (as many at once as there
    /// are cores, a few more queued), and the outcomes are emitted in file order.
    /// Memory stays bounded: at most `2 × cores` batches are read ahead.
    func readLinesInParallel(_ file: FileInput, handle: OpenFile, emitter: inout OrderedEmitter) async throws {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: (Int, [LineOutcome]).self) { group in
            var finished: [Int: [LineOutcome]] = [:]
            var submitted = 0
            var emitted = 0
            var batch = LineBatch(firstLine: 1)
            var lineNumber = 0

            func collect(_ group: inout ThrowingTaskGroup<(Int, [LineOutcome]), Error>, emitter: inout OrderedEmitter) async throws {
                try await emitter.sendOutgoing()
                guard let (number, outcomes) = try await group.next() else { return }
                finished[number] = outcomes
                while let ready = finished.removeValue(forKey: emitted) {
                    emitted += 1
                    for outcome in ready {
                        switch outcome {
                        case .outcome(let outcome): try await emitter.emit(outcome)
                        case .invalid(let error): throw error
                        }
                    }
                }
            }
            func submit(_ group: inout ThrowingTaskGroup<(Int, [LineOutcome]), Error>, emitter: inout OrderedEmitter) async throws {
                guard !batch.lines.isEmpty else { return }
                while submitted - emitted >= workers * 2 { try await collect(&group, emitter: &emitter) }
                let work = batch
                let number = submitted
                submitted += 1
                group.addTask { (number, try await self.process(work, path: file.path)) }
                batch = LineBatch(firstLine: lineNumber + 1)
            }

            try await forEachLine(of: handle, path: file.path) { line, number in
                lineNumber = number
                batch.append(line)
                if batch.lines.count >= LineBatch.size { try await submit(&group, emitter: &emitter) }
            }
            try await submit(&group, emitter: &emitter)
            while emitted < submitted { try await collect(&group, emitter: &emitter) }
        }
    }

    /// Consecutive lines of an NDJSON file, copied into one buffer.
    struct LineBatch: Sendable {
        static let size = 256
        /// The file line number of the first line.
        let firstLine: Int
        var bytes: [UInt8] = []
        var lines: [Range<Int>] = []

        init(firstLine: Int) {
            self.firstLine = firstLine
        }

        mutating func append(_ line: ArraySlice<UInt8>) {
            if bytes.isEmpty { bytes.reserveCapacity(Self.size * 1_200) }
            let start = bytes.count
            bytes.append(contentsOf: line)
            lines.append(start..<bytes.count)
        }
    }

    /// What one line of a batch gave: an outcome to emit, or the error that ends the pull.
    enum LineOutcome: Sendable {
        case outcome(Outcome)
        case invalid(SourceError)
    }

    /// Parses, shapes and canonicalises the lines of one batch; stops at the
    /// first line that is not JSON (the pull ends there, as the sequential
    /// reader does).
    func process(_ batch: LineBatch, path: String) async throws -> [LineOutcome] {
        var outcomes: [LineOutcome] = []
        outcomes.reserveCapacity(batch.lines.count)
        for (offset, range) in batch.lines.enumerated() {
            let number = batch.firstLine + offset
            let item: Item?
            do {
                item = try jsonLineItem(batch.bytes[range], number: number, locator: "line \(number)",
                                        invalid: { SourceError.file(path: path, reason: $0) })
            } catch let error as SourceError {
                outcomes.append(.invalid(error))
                break
            }
            guard let item else { continue }
            outcomes.append(.outcome(try await process(item)))
        }
        return outcomes
    }
}
