/// How ``CentralManager/connect(_:options:)`` connects.
public struct ConnectOptions: Hashable, Sendable {
    /// How long to try before the attempt is cancelled and the call throws
    /// ``BLEError/connectionTimeout``; 30 s by default. It bounds each phase of the call: the
    /// link's creation (from the controller's turn to initiate), and then, from the link's
    /// creation, the ATT MTU exchange (and restoration's Database Hash read), for which the
    /// link is terminated when the time is up. A `connect` made while another attempts waits
    /// for that attempt at most this long. On ``Transport/virtual(_:)`` it runs
    /// on the radio's virtual clock.
    public var timeout: Duration
    /// How secure the link must be before ``connect(_:options:)`` returns (LE security mode 1,
    /// Core v5.4, Vol 3, Part C, 10.2.1); ``SecurityLevel/none`` by default.
    ///
    /// Kernel mode: the kernel pairs (or encrypts with a stored key) before the ATT channel
    /// opens (the socket's BT_SECURITY). Linux asks user space to confirm even Just Works
    /// pairing; the manager answers that question itself for this peer while the link lasts,
    /// on the kernel's management channel (which needs CAP_NET_ADMIN), so no bluetoothd is
    /// needed for ``SecurityLevel/encrypted``. ``SecurityLevel/authenticated`` needs a passkey
    /// or a comparison a person checks, which only another agent (bluetoothd's) can offer; without
    /// one the kernel's pairing fails and `connect` throws. Host mode has no SMP yet: anything
    /// above ``SecurityLevel/none`` throws ``BLEError/unsupported(_:)`` and nothing is sent.
    public var security: SecurityLevel

    /// Options; a 30 s timeout and no security by default.
    public init(timeout: Duration = .seconds(30), security: SecurityLevel = .none) {
        self.timeout = timeout
        self.security = security
    }
}
