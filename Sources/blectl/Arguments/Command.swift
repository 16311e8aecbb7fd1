/// A command blectl runs: how it is written, and what runs it.
struct Command: Sendable {
    /// What runs a command: its arguments (after its name) and the global options' context in,
    /// the exit status out.
    typealias Run = @Sendable (_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async -> Int32

    let syntax: CommandSyntax
    let run: Run

    init(_ syntax: CommandSyntax, run: @escaping Run) {
        self.syntax = syntax
        self.run = run
    }
}
