/// A command blectl runs: how it is written, and what runs it.
struct Command: Sendable {
    /// What runs a command: its arguments (after its name) and the global options' context in,
    /// the exit status out.
    typealias Run = @Sendable (_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async -> Int32
    /// What runs a command that needs no task (it neither waits nor does I/O beyond its files and
    /// standard output): the same inputs and result as ``Run``.
    typealias SynchronousRun = @Sendable (_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) -> Int32

    let syntax: CommandSyntax
    let run: Run
    /// Set for a command that needs no task: `main` runs it on the main thread before any task
    /// exists, so that the process starts no thread pool (`decode` on a small capture takes a
    /// few milliseconds, of which starting the pool's threads was a large part).
    let synchronousRun: SynchronousRun?

    init(_ syntax: CommandSyntax, run: @escaping Run) {
        self.syntax = syntax
        self.run = run
        self.synchronousRun = nil
    }

    /// A command that needs no task; ``run`` calls the same closure.
    init(_ syntax: CommandSyntax, synchronous: @escaping SynchronousRun) {
        self.syntax = syntax
        self.run = { arguments, context, output in synchronous(arguments, context, &output) }
        self.synchronousRun = synchronous
    }
}
