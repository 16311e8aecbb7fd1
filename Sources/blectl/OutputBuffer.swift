#if canImport(Glibc)
import Glibc
#endif
import BLECore

/// Buffered writes to a file descriptor: decoding a capture prints thousands of lines, and one
/// write(2) per line would cost more than the decoding.
struct OutputBuffer: TextOutputStream {
    let fileDescriptor: Int32
    /// The text not yet written to the descriptor. A printer may write a line straight into its
    /// octets (`packet.writeLine(to: &output.pending)`), then end it with ``endLine()``.
    var pending = TextOutput(capacity: 1 << 16)
    /// Set when output can go no further: the reader went away (EPIPE, as when piped into
    /// `head`) or writing failed. Later writes are dropped, and a long command can stop early.
    private(set) var isClosed = false
    /// Why writing stopped, in the system's words ("Broken pipe", "No space left on device"),
    /// the reader going away included: for commands whose output is their result (`serve`,
    /// `gatt-script`), any lost line is a failure.
    private(set) var stopReason: String?
    /// Why writing failed, when it failed for a reason other than the reader going away (a full
    /// disk, say): `decode` then reports it and exits 1, since output was lost.
    private(set) var failure: String?

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    mutating func write(_ string: String) {
        guard !isClosed else { return }
        pending.write(string: string)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Ends the line written into ``pending`` with a newline (or drops it once output is closed).
    mutating func endLine() {
        guard !isClosed else {
            pending.removeAll()
            return
        }
        pending.write(octet: 0x0A)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Writes `line` and a newline.
    mutating func line(_ line: String) {
        write(line)
        write("\n")
    }

    mutating func flush() {
        var start = 0
        while start < pending.count {
            let from = start
            let written = pending.withOctets { Glibc.write(fileDescriptor, $0.baseAddress! + from, $0.count - from) }
            if written < 0 {
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    // A non-blocking descriptor that is full: wait until it can take more.
                    var ready = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                case EPIPE:
                    isClosed = true  // the reader went away: drop the rest quietly
                    stopReason = String(cString: strerror(EPIPE))
                default:
                    let reason = String(cString: strerror(errno))
                    isClosed = true
                    failure = reason
                    stopReason = reason
                }
                break
            }
            start += written
        }
        pending.removeAll()
    }
}

/// Writes a line to standard error at once.
func printError(_ message: String) {
    var err = OutputBuffer(fileDescriptor: 2)
    err.line(message)
    err.flush()
}
