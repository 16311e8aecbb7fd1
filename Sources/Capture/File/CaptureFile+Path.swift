#if canImport(Glibc)
import Glibc
#endif

extension CaptureFile {
    /// Reads the file at `path` into memory and recognises its format. Regular files, pipes,
    /// FIFOs and `/dev/stdin` all work: the file is read to its end, not mapped.
    ///
    /// - Throws: ``CaptureError/unreadableFile(path:reason:)`` when the file cannot be opened or
    ///   read (the reason is the system's, for example "Is a directory" or "No such file or
    ///   directory"); otherwise the errors of ``init(bytes:)``.
    public init(contentsOf path: String) throws(CaptureError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try self.init(readingFileDescriptor: descriptor, name: path)
    }

    /// Reads everything from an open file descriptor (for example 0, standard input) and
    /// recognises its format.
    ///
    /// - Throws: ``CaptureError/unreadableFile(path:reason:)`` naming `name` when reading fails;
    ///   otherwise the errors of ``init(bytes:)``.
    public init(readingFileDescriptor descriptor: Int32, name: String) throws(CaptureError) {
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .unreadableFile(path: name, reason: "it is a directory") }
            if info.st_mode & S_IFMT == S_IFREG { bytes.reserveCapacity(Int(info.st_size)) }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw .unreadableFile(path: name, reason: String(cString: strerror(errno)))
            }
        }
        try self.init(bytes: bytes)
    }
}
