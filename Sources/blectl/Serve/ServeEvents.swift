/// Lines about connections, written at once to a descriptor (they come from several tasks);
/// a negative descriptor drops them (tests).
final class ServeEvents: Sendable {
    let fileDescriptor: Int32

    init(fileDescriptor: Int32 = 1) { self.fileDescriptor = fileDescriptor }

    func say(_ line: String) {
        guard fileDescriptor >= 0 else { return }
        var out = OutputBuffer(fileDescriptor: fileDescriptor)
        out.line(line)
        out.flush()
    }
}
