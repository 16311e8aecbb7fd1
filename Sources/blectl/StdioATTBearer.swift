import Synchronization
import ATT
import BLECore
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// An ATT bearer over two file descriptors carrying one PDU per line in hexadecimal: what
/// `blectl serve --bearer stdio` speaks, for protocol research and scripted tests. Reading is
/// readiness-driven (a DispatchIO stream channel on the input descriptor); end of input finishes ``received``
/// while sending still works (a half-closed stream), so the server answers what it read.
/// A line that is not hexadecimal is reported on standard error with its line number and why; it
/// is skipped (``InputErrors/keepGoing``) or ends the input (``InputErrors/stop``), and counted in
/// ``badLines`` either way. `#` starts a comment. A write to the output that fails (EPIPE, ENOSPC)
/// ends the bearer, and ``outputFailure`` keeps the system's reason.
final class StdioATTBearer: ATTBearer, Sendable {
    /// What a line that is not a PDU in hexadecimal does.
    enum InputErrors: Sendable {
        /// Report it, skip it, and read on (`--keep-going`, the default).
        case keepGoing
        /// Report it and read no further (`--strict`): what came before is still answered.
        case stop
    }

    let maximumMTU: UInt16
    let received: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "blectl.stdio-bearer")
    private let outputDescriptor: Int32
    let securityOffered: ATTSecurity
    private let inputErrors: InputErrors

    private struct State {
        var pending: [UInt8] = []
        var channel: DispatchIO?
        var inputEnded = false
        var closed = false
        /// Lines read so far, blank lines and comments included: the number of the last one.
        var lineNumber = 0
        var badLines = 0
        var outputFailure: String?
    }

    init(input inputDescriptor: Int32, output: Int32, maximumMTU: UInt16 = 517, security: ATTSecurity = .none,
         inputErrors: InputErrors = .keepGoing) {
        self.maximumMTU = maximumMTU
        self.outputDescriptor = output
        self.securityOffered = security
        self.inputErrors = inputErrors
        (received, input) = AsyncStream.makeStream(of: [UInt8].self)
        state = Mutex(State())
        // DispatchIO reports end of input reliably, also when the data and the hang-up arrive in one
        // readiness event (a plain read source on Linux is not re-armed after EPOLLHUP).
        let channel = DispatchIO(type: .stream, fileDescriptor: inputDescriptor, queue: queue) { _ in }
        channel.setLimit(lowWater: 1)
        state.withLock { $0.channel = channel }
        channel.read(offset: 0, length: Int.max, queue: queue) { [weak self] done, data, error in
            if let data, !data.isEmpty { self?.append(Array(data)) }
            if done { self?.finishInput(deliveringLastLine: true) }
        }
    }

    var security: ATTSecurity { get async { securityOffered } }

    /// How many lines of input were not PDUs in hexadecimal.
    var badLines: Int { state.withLock { $0.badLines } }

    /// Why writing to the output failed, in the system's words ("No space left on device",
    /// "Broken pipe"); nil while every PDU was written.
    var outputFailure: String? { state.withLock { $0.outputFailure } }

    /// Splits what arrived into lines and delivers each whole line with its number.
    private func append(_ bytes: [UInt8]) {
        let lines: [(Int, [UInt8])] = state.withLock { state in
            guard !state.inputEnded else { return [] }
            state.pending.append(contentsOf: bytes)
            var lines: [(Int, [UInt8])] = []
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                state.lineNumber += 1
                lines.append((state.lineNumber, Array(state.pending[..<newline])))
                state.pending.removeSubrange(...newline)
            }
            return lines
        }
        for (number, line) in lines {
            guard deliver(line, number: number) else {
                finishInput()
                return
            }
        }
    }

    /// Passes one line's PDU on; false when the line was bad and input stops there.
    private func deliver(_ line: [UInt8], number: Int) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }), !text.hasPrefix("#") else { return true }
        let problem: String
        do {
            let pdu = try Hex.octets(text)
            if !pdu.isEmpty {
                input.yield(pdu)
                return true
            }
            problem = "no octets"
        } catch {
            problem = error.description
        }
        state.withLock { $0.badLines += 1 }
        let shown = text.hasSuffix("\r") ? String(text.dropLast()) : text
        switch inputErrors {
        case .keepGoing:
            printError("blectl serve: line \(number): not a PDU in hexadecimal (\(problem)), skipped: \(shown)")
            return true
        case .stop:
            printError("blectl serve: line \(number): not a PDU in hexadecimal (\(problem)): \(shown); reading no further (--strict)")
            return false
        }
    }

    /// Stops reading and finishes ``received``; at the end of input (`deliveringLastLine`), a
    /// last line without a newline is delivered first.
    private func finishInput(deliveringLastLine: Bool = false) {
        let (channel, rest, number): (DispatchIO?, [UInt8], Int) = state.withLock { state in
            defer {
                state.inputEnded = true
                state.channel = nil
                state.pending = []
            }
            // A last line without a newline still counts, once.
            guard deliveringLastLine, !state.inputEnded, !state.pending.isEmpty else { return (state.channel, [], state.lineNumber) }
            state.lineNumber += 1
            return (state.channel, state.pending, state.lineNumber)
        }
        if !rest.isEmpty { _ = deliver(rest, number: number) }
        channel?.close(flags: .stop)
        input.finish()
    }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        guard !state.withLock({ $0.closed }) else { throw .closed }
        var line = Array(Hex.encode(pdu).utf8)
        line.append(UInt8(ascii: "\n"))
        var start = 0
        while start < line.count {
            let written = line[start...].withUnsafeBytes { write(outputDescriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                let error = errno
                switch error {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    // A non-blocking descriptor that is full: wait until it can take more.
                    var ready = pollfd(fd: outputDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                default:
                    // The PDU is lost (a full disk, a reader gone): the bearer ends, and serve
                    // reports the reason and exits 1.
                    state.withLock { state in
                        if state.outputFailure == nil { state.outputFailure = String(cString: strerror(error)) }
                    }
                    throw .closed
                }
            }
            start += written
        }
    }

    /// Stops reading and refuses further sends; standard output stays open for the process.
    func close() async {
        state.withLock { $0.closed = true }
        finishInput()
    }
}
