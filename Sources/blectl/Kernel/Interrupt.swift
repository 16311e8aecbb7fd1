import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Runs `action` on SIGINT or SIGTERM (readiness through a dispatch signal source), instead of
/// the default of ending the process, so a command can end cleanly.
final class Interrupt {
    private let sources: [any DispatchSourceSignal]

    init(_ action: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "blectl.interrupt")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    /// Stops watching and restores the default handlers.
    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
