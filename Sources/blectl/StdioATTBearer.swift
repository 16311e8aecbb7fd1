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
/// A line that is not hexadecimal is reported on standard error and skipped; `#` starts a comment.
final class StdioATTBearer: ATTBearer, Sendable {
    let maximumMTU: UInt16
    let received: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "blectl.stdio-bearer")
    private let outputDescriptor: Int32
    let securityOffered: ATTSecurity

    private struct State {
        var pending: [UInt8] = []
        var channel: DispatchIO?
        var inputEnded = false
        var closed = false
    }

    init(input inputDescriptor: Int32, output: Int32, maximumMTU: UInt16 = 517, security: ATTSecurity = .none) {
        self.maximumMTU = maximumMTU
        self.outputDescriptor = output
        self.securityOffered = security
        (received, input) = AsyncStream.makeStream(of: [UInt8].self)
        state = Mutex(State())
        // DispatchIO reports end of input reliably, also when the data and the hang-up arrive in one
        // readiness event (a plain read source on Linux is not re-armed after EPOLLHUP).
        let channel = DispatchIO(type: .stream, fileDescriptor: inputDescriptor, queue: queue) { _ in }
        channel.setLimit(lowWater: 1)
        state.withLock { $0.channel = channel }
        channel.read(offset: 0, length: Int.max, queue: queue) { [weak self] done, data, error in
            if let data, !data.isEmpty { self?.append(Array(data)) }
            if done { self?.finishInput() }
        }
    }

    var security: ATTSecurity { get async { securityOffered } }

    /// Splits what arrived into lines and delivers each whole line.
    private func append(_ bytes: [UInt8]) {
        let lines: [[UInt8]] = state.withLock { state in
            state.pending.append(contentsOf: bytes)
            var lines: [[UInt8]] = []
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(Array(state.pending[..<newline]))
                state.pending.removeSubrange(...newline)
            }
            return lines
        }
        for line in lines { deliver(line) }
    }

    private func deliver(_ line: [UInt8]) {
        let text = String(decoding: line, as: UTF8.self)
        guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }), !text.hasPrefix("#") else { return }
        guard let pdu = Hex.decode(text), !pdu.isEmpty else {
            printError("blectl serve: skipped a line that is not a PDU in hexadecimal: \(text)")
            return
        }
        input.yield(pdu)
    }

    private func finishInput() {
        let (channel, rest): (DispatchIO?, [UInt8]) = state.withLock { state in
            defer {
                state.inputEnded = true
                state.channel = nil
                state.pending = []
            }
            // A last line without a newline still counts, once.
            return (state.channel, state.inputEnded ? [] : state.pending)
        }
        if !rest.isEmpty { deliver(rest) }
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
                if errno == EINTR { continue }
                throw .closed
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
