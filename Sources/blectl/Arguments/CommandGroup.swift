/// One entry of `blectl help`'s summary: one command, or several that share a paragraph (gatt,
/// read, write, subscribe).
struct CommandGroup: Sendable {
    /// The commands, in the order the summary shows their synopses.
    let commands: [Command]
    /// The paragraph under the synopses, wrapped, without indentation.
    let summary: String

    init(_ commands: [Command], summary: String) {
        self.commands = commands
        self.summary = summary
    }

    init(_ command: Command, summary: String) {
        self.init([command], summary: summary)
    }
}
