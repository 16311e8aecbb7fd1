/// How ``CentralManager/connect(_:options:)`` connects.
public struct ConnectOptions: Hashable, Sendable {
    /// How long to try before the attempt is cancelled and the call throws
    /// ``BLEError/connectionTimeout``; 30 s by default. On ``Transport/virtual(_:)`` it runs
    /// on the radio's virtual clock.
    public var timeout: Duration

    /// Options; a 30 s timeout by default.
    public init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
    }
}
