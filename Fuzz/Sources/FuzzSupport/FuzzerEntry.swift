import CLibFuzzer

/// One harness's test of one input: the octets libFuzzer generated, which the harness must not
/// keep past the call. A property that fails traps (``FuzzProperty/require(_:_:)``), which
/// libFuzzer records as a crash with the input that caused it.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Hands a harness executable's command line to libFuzzer.
///
/// SwiftPM links every Linux executable with `main` defined as `<Module>_main`, so each harness
/// defines that symbol (with `@_cdecl`) and calls this from it:
///
/// ```swift
/// @_cdecl("FuzzATTPDU_main")
/// func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
///     runFuzzer(argc, argv) { data, size in
///         ATTPDUHarness.test(FuzzInput.octets(data, size))
///         return 0
///     }
/// }
/// ```
///
/// The command line is libFuzzer's own (`-runs=N`, `-seed=N`, `-max_total_time=S`, corpus
/// folders; docs/fuzzing.md).
public func runFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ test: FuzzTest) -> Int32 {
    clibfuzzer_run(argc, argv, test)
}
