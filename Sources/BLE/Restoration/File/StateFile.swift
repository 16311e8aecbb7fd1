import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The file one manager's restoration state lives in (docs/state-restoration.md), and the three
/// things done to it: read it whole, set it aside when it cannot be trusted, and replace it
/// atomically.
///
/// **Name.** `<stateDirectory>/<role>-<identifier>.json`, the identifier with every octet other
/// than `A-Z a-z 0-9 . _ -` written `%XX`, so any identifier names one file and no other.
///
/// **Replacing** (``replace(with:beforeRename:)``) writes a temporary file in the same
/// directory (`.<name>.tmp-<pid>-<n>`, mode 0600), fsyncs it, renames it over the file
/// (rename(2) is atomic within a file system), then fsyncs the directory so the rename itself
/// survives a power cut. A kill at any moment leaves the old file or the new one, whole; at
/// worst a temporary file, which no reader opens, and which ``removeAbandonedTemporaries()``
/// deletes once its writer's process is gone.
struct StateFile: Sendable {
    /// The largest file read: 16 MiB. A bigger one is not a state this package wrote.
    static let maximumSize = 16 << 20

    /// The directory holding the file.
    let directory: URL
    /// The file's name within ``directory``.
    let name: String

    /// The file of the manager of `role` ("central", "peripheralManager") restored under
    /// `identifier`, in `directory`.
    init(directory: URL, role: String, identifier: String) {
        self.directory = directory
        name = role + "-" + Self.escape(identifier) + ".json"
    }

    /// The file's path.
    var url: URL { directory.appendingPathComponent(name) }
    /// Where a file that cannot be trusted is moved: the name with `.damaged` after it.
    var setAsideURL: URL { directory.appendingPathComponent(name + ".damaged") }

    /// `identifier` with every octet outside `A-Z a-z 0-9 . _ -` as `%XX`, and a leading `.` too
    /// (no hidden or relative names).
    static func escape(_ identifier: String) -> String {
        var out = ""
        for (index, octet) in identifier.utf8.enumerated() {
            switch octet {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                out.unicodeScalars.append(Unicode.Scalar(octet))
            case UInt8(ascii: ".") where index > 0:
                out.append(".")
            default:
                out += String(format: "%%%02X", octet)
            }
        }
        return out
    }

    // MARK: Reading

    /// What reading found.
    enum Contents: Sendable {
        /// There is no file: nothing to restore.
        case absent
        /// The file's octets.
        case found([UInt8])
        /// The file is there but could not be read whole; the text says why.
        case unreadable(String)
    }

    /// Reads the whole file (at most ``maximumSize`` octets).
    func read() -> Contents {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .absent : .unreadable("open: \(Self.text(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable("fstat: \(Self.text(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .unreadable("not a regular file") }
        guard Int(info.st_size) <= Self.maximumSize else {
            return .unreadable("\(info.st_size) octets, more than the \(Self.maximumSize) a state file may have")
        }
        var octets: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable("read: \(Self.text(errno))")
            }
            if count == 0 { break }
            octets += chunk[0..<count]
            if octets.count > Self.maximumSize { return .unreadable("grew past \(Self.maximumSize) octets while read") }
        }
        return .found(octets)
    }

    /// Moves the file to ``setAsideURL`` (replacing an earlier one there), so that it is kept
    /// for a person to look at and never read again.
    ///
    /// - Returns: where it went; nil when it could not be moved (the text says why).
    func setAside() -> Result<URL, StateFileWriteError> {
        guard rename(url.path, setAsideURL.path) == 0 else {
            return .failure(StateFileWriteError(step: "rename to \(setAsideURL.lastPathComponent)", code: errno))
        }
        syncDirectory()
        return .success(setAsideURL)
    }

    // MARK: Replacing

    /// Numbers the temporary files this process writes.
    private static let temporaries = Atomic<UInt64>(0)

    /// The prefix of every temporary file of this state file: `.<name>.tmp-`.
    var temporaryPrefix: String { "." + name + ".tmp-" }

    /// Replaces the file's contents with `octets` atomically (see the type's documentation).
    ///
    /// - Parameter beforeRename: runs once the temporary file is written and synced, before the
    ///   rename; false stops there as a writer killed at that moment would (the temporary file
    ///   stays, the file is not replaced): the tests' stand-in for a kill.
    /// - Throws: ``StateFileWriteError`` with the step and errno; the temporary file is removed,
    ///   and the old file is untouched.
    func replace(with octets: [UInt8], beforeRename: (URL) -> Bool = { _ in true }) throws(StateFileWriteError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateFileWriteError(step: "create the directory \(directory.path)", reason: "\(error)")
        }
        let number = Self.temporaries.wrappingAdd(1, ordering: .relaxed).newValue
        let temporary = directory.appendingPathComponent(temporaryPrefix + "\(getpid())-\(number)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFileWriteError(step: "create \(temporary.lastPathComponent)", code: errno) }
        var closed = false
        do throws(StateFileWriteError) {
            var written = 0
            while written < octets.count {
                let count = octets.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw StateFileWriteError(step: "write", code: errno)
                }
                written += count
            }
            guard fsync(fd) == 0 else { throw StateFileWriteError(step: "fsync", code: errno) }
            closed = true
            guard close(fd) == 0 else { throw StateFileWriteError(step: "close", code: errno) }
            guard beforeRename(temporary) else { return }
            guard rename(temporary.path, url.path) == 0 else { throw StateFileWriteError(step: "rename", code: errno) }
        } catch {
            if !closed { close(fd) }
            unlink(temporary.path)
            throw error
        }
        syncDirectory()
    }

    /// Deletes the temporary files of this state file whose writer process no longer exists
    /// (kill(pid, 0) answers ESRCH): what a writer killed before its rename left. Those of a
    /// live process, this one included, are left alone.
    ///
    /// - Returns: the files deleted.
    @discardableResult
    func removeAbandonedTemporaries() -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [URL] = []
        for entry in names where entry.hasPrefix(temporaryPrefix) {
            let rest = entry.dropFirst(temporaryPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let abandoned = directory.appendingPathComponent(entry)
            if unlink(abandoned.path) == 0 { removed.append(abandoned) }
        }
        return removed
    }

    /// Makes the directory's entries (a rename) durable.
    private func syncDirectory() {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// strerror's text with the errno name's number: "No space left on device (errno 28)".
    static func text(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}

/// A state file that could not be written or moved: the step that failed and why.
struct StateFileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// "fsync", "rename", ...
    var step: String
    /// The system's reason.
    var reason: String

    init(step: String, reason: String) {
        self.step = step
        self.reason = reason
    }

    /// A system call's failure with `code` (errno).
    init(step: String, code: Int32) {
        self.init(step: step, reason: StateFile.text(code))
    }

    /// "rename: No space left on device (errno 28)".
    var description: String { "\(step): \(reason)" }
}
