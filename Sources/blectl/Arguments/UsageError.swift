/// A mistake in a command line, as a sentence for the user (the command exits with status 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
