import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs `action` on SIGINT or SIGTERM (readiness through a dispatch signal source), instead of
/// the default of ending the process, so a command can end cleanly.
///
/// Within ``InterruptTrigger/$current`` (a test's task) the action waits for that trigger's
/// ``InterruptTrigger/fire()`` instead, and no signal handler changes: a test can stop a command
/// as Ctrl-C would without signalling the whole test process.
final class Interrupt {
    private let sources: [any DispatchSourceSignal]
    private let trigger: InterruptTrigger?

    init(_ action: @escaping @Sendable () -> Void) {
        if let trigger = InterruptTrigger.current {
            self.trigger = trigger
            sources = []
            trigger.install(action)
            return
        }
        trigger = nil
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
        if let trigger {
            trigger.install(nil)
            return
        }
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// A stand-in for Ctrl-C in tests: an ``Interrupt`` made while ``current`` is this trigger runs
/// its action when ``fire()`` is called.
final class InterruptTrigger: Sendable {
    @TaskLocal static var current: InterruptTrigger?

    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    init() {}

    /// Whether an ``Interrupt`` is watching (its command has got as far as that).
    var isArmed: Bool { action.withLock { $0 != nil } }

    fileprivate func install(_ action: (@Sendable () -> Void)?) {
        self.action.withLock { $0 = action }
    }

    /// Runs the watching ``Interrupt``'s action, as SIGINT would; nothing when none watches.
    func fire() {
        action.withLock { $0 }?()
    }
}
