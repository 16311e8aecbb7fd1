#if canImport(Glibc)
import Glibc
#endif

/// A btsnoop file written as records come (a live capture): the 16-octet header when it is
/// created, then each record appended with write(2), so nothing accumulates in memory and what
/// was written stays readable if the process ends. btmon (`btmon -r`), Wireshark and
/// `blectl decode` read it.
public final class BTSnoopStream {
    /// The file's path.
    public let path: String
    /// How many records were written.
    public private(set) var recordCount = 0
    private let encoder: BTSnoopWriter
    private var descriptor: Int32

    /// Creates (or truncates) the file at `path` and writes the header for `datalink`.
    ///
    /// - Throws: ``CaptureWriteError/unsupportedDatalink(_:)`` for a datalink other than 1002
    ///   or 2001; ``CaptureWriteError/fileNotWritable(path:reason:)`` with the system's reason
    ///   when the file cannot be created or written.
    public init(path: String, datalink: LinkType) throws(CaptureWriteError) {
        self.path = path
        encoder = try BTSnoopWriter(datalink: datalink)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fileNotWritable(path: path, reason: String(cString: strerror(errno))) }
        do {
            try write(encoder.bytes)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Appends `record`.
    ///
    /// - Throws: ``CaptureWriteError`` when the record cannot be written in the datalink (the
    ///   file is unchanged), or ``CaptureWriteError/fileNotWritable(path:reason:)`` when the write
    ///   fails (a full disk).
    public func append(_ record: CaptureRecord) throws(CaptureWriteError) {
        try write(try encoder.encode(record))
        recordCount += 1
    }

    /// Closes the file; later appends throw.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    private func write(_ octets: [UInt8]) throws(CaptureWriteError) {
        guard descriptor >= 0 else { throw .fileNotWritable(path: path, reason: "the file is closed") }
        var written = 0
        while written < octets.count {
            let count = octets.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count > 0 { written += count; continue }
            if count < 0, errno == EINTR { continue }
            throw .fileNotWritable(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
