#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor: decoding a capture prints thousands of lines, and one
/// write(2) per line would cost more than the decoding.
struct OutputBuffer: TextOutputStream {
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Set when the reader went away (EPIPE, as when piped into `head`): later writes are
    /// dropped, and a long command can stop early.
    private(set) var isClosed = false

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
                if errno == EINTR { continue }
                isClosed = true  // EPIPE and the like: the reader went away; drop the rest.
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
