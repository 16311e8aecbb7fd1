/// The end of a command before it ran: its help was printed (status 0), or a usage error (2).
/// ``CommandSyntax/parse(_:output:)`` throws it after printing what the user needs to see.
struct CommandExit: Error {
    /// The exit status to end with.
    let status: Int32
}
