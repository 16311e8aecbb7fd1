#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor: decoding a capture prints thousands of lines, and one
/// write(2) per line would cost more than the decoding.
struct OutputBuffer: TextOutputStream {
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []
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
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ string: String) {
        guard !isClosed else { return }
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `line` and a newline.
    mutating func line(_ line: String) {
        write(line)
        write("\n")
    }

    mutating func flush() {
        var start = 0
        while start < buffer.count {
            let written = buffer[start...].withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress, $0.count) }
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
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes a line to standard error at once.
func printError(_ message: String) {
    var err = OutputBuffer(fileDescriptor: 2)
    err.line(message)
    err.flush()
}
