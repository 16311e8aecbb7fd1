/// The properties harnesses check. A broken one is a finding: it prints what broke to standard
/// error and traps, and libFuzzer keeps the input as a crash file.
public enum FuzzProperty {
    /// Traps with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String,
                               file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fail(message(), file: file, line: line) }
    }

    /// Traps with `message`: the harness saw something that must never happen.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("fuzz property broken: \(message)", file: file, line: line)
    }
}
