import BLE

/// The options every connecting command takes: `--random`, `--security low|medium|high`,
/// `--timeout S`, `--mtu OCTETS` (``declared``, which gatt, read, write and subscribe share),
/// read into the BLE API's connection options.
struct ConnectionArguments {
    static let randomOption = CommandOption.flag("--random")
    static let securityOption = CommandOption.value("--security", "low|medium|high", takes: "low, medium or high")
    static let timeoutOption = CommandOption.value("--timeout", "S", takes: "seconds (0 < s <= 3600)")
    static let mtuOption = CommandOption.value("--mtu", "OCTETS", takes: "octets, 23...517")
    /// The options, in the order the help shows them.
    static let declared = [randomOption, securityOption, timeoutOption, mtuOption]

    /// The words of `--security` and the levels they ask for (LE security mode 1, Core v5.4,
    /// Vol 3, Part C, 10.2.1): low is none, medium encrypted, high authenticated.
    static let securityWords: [(word: String, level: SecurityLevel)] = [("low", .none), ("medium", .encrypted), ("high", .authenticated)]

    /// Whether ADDR is a random (static) address (`--random`); public otherwise.
    var random = false
    /// What `--security` asks for.
    var security = SecurityLevel.none
    /// How long connecting may take (`--timeout`, 20 s by default).
    var timeout: Duration = .seconds(20)
    /// The Rx MTU offered in the MTU exchange, in octets (`--mtu`, 23...517).
    var mtu: UInt16 = 517

    /// The connection options in `parsed`, checked.
    ///
    /// - Throws: ``KernelContext/Failure`` naming the option whose value is wrong and what it takes.
    init(_ parsed: ParsedArguments) throws(KernelContext.Failure) {
        random = parsed.contains(Self.randomOption)
        if let word = parsed.value(of: Self.securityOption) {
            guard let level = Self.securityWords.first(where: { $0.word == word })?.level else {
                throw KernelContext.Failure(Self.securityOption.expectation)
            }
            security = level
        }
        if let word = parsed.value(of: Self.timeoutOption) {
            guard let seconds = Double(word), seconds > 0, seconds <= 3600 else { throw KernelContext.Failure(Self.timeoutOption.expectation) }
            timeout = .milliseconds(Int64(seconds * 1000))
        }
        if let word = parsed.value(of: Self.mtuOption) {
            guard let value = UInt16(word), (23...517).contains(value) else { throw KernelContext.Failure(Self.mtuOption.expectation) }
            mtu = value
        }
    }

    /// The `--security` word one level up, for the advice after Insufficient Authentication.
    var nextSecurityWord: String { security == .none ? "medium" : "high" }
}
