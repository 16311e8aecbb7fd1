import ATT
import BLECore
import GATT
import Host
import LinuxBluetooth

/// What the kernel-mode commands share: the adapter (`--hci N`, default hci0), and connecting a
/// GATT client to a peer over the kernel's L2CAP ATT channel.
struct KernelContext {
    /// The adapter index N of hciN.
    var hci: UInt16 = 0
    /// Whether a command may power the adapter on when it is down (not with `--no-power`).
    var powersOn = true
    /// The controller and mode (`--transport`): kernel mode on hci`hci` unless it says otherwise.
    var transport = TransportChoice.kernel(hci: 0)
    /// Where `--capture` writes the HCI traffic (host mode), or nil.
    var capture: String?

    /// A command-line failure that is already a sentence for the user.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The options every connecting command takes: `--random`, `--security low|medium|high`,
    /// `--timeout SECONDS`, `--mtu OCTETS` (``declared``, which gatt, read, write and subscribe
    /// share).
    struct ConnectOptions {
        static let randomOption = CommandOption.flag("--random")
        static let securityOption = CommandOption.value("--security", "low|medium|high", takes: "low, medium or high")
        static let timeoutOption = CommandOption.value("--timeout", "S", takes: "seconds (0 < s <= 3600)")
        static let mtuOption = CommandOption.value("--mtu", "OCTETS", takes: "octets, 23...517")
        /// The options, in the order the help shows them.
        static let declared = [randomOption, securityOption, timeoutOption, mtuOption]

        var random = false
        var security = L2CAPATTChannel.Security.low
        var timeout: Duration = .seconds(20)
        /// The Rx MTU offered in the MTU exchange, in octets (`--mtu`, 23...517).
        var mtu: UInt16 = 517

        /// The connection options in `parsed`, checked.
        ///
        /// - Throws: ``Failure`` naming the option whose value is wrong and what it takes.
        init(_ parsed: ParsedArguments) throws(Failure) {
            random = parsed.contains(Self.randomOption)
            if let word = parsed.value(of: Self.securityOption) {
                guard let level = L2CAPATTChannel.Security.allCases.first(where: { $0.description == word }) else {
                    throw Failure(Self.securityOption.expectation)
                }
                security = level
            }
            if let word = parsed.value(of: Self.timeoutOption) {
                guard let seconds = Double(word), seconds > 0, seconds <= 3600 else { throw Failure(Self.timeoutOption.expectation) }
                timeout = .milliseconds(Int64(seconds * 1000))
            }
            if let word = parsed.value(of: Self.mtuOption) {
                guard let value = UInt16(word), (23...517).contains(value) else { throw Failure(Self.mtuOption.expectation) }
                mtu = value
            }
        }
    }

    /// The adapter, up: powered on (with LE) through the management channel when it is down,
    /// unless `--no-power` was given.
    ///
    /// - Throws: ``Failure`` naming the adapter and what to do.
    func adapter() async throws(Failure) -> HCIAdapterInfo {
        var adapter: HCIAdapterInfo
        do { adapter = try HCIAdapters.adapter(hci) } catch { throw Failure("\(error)") }
        if !adapter.isUp {
            guard powersOn else { throw Failure("hci\(hci) is down: `blectl --hci \(hci) power on` (or drop --no-power)") }
            do { _ = try await power(on: true) } catch { throw Failure("hci\(hci) is down and could not be powered on: \(error)") }
            do { adapter = try HCIAdapters.adapter(hci) } catch { throw Failure("\(error)") }
        }
        guard adapter.supportsLE else { throw Failure("hci\(hci) does not support LE") }
        return adapter
    }

    /// Powers the adapter on (with LE) or off through the management channel.
    ///
    /// - Returns: the adapter's settings afterwards.
    func power(on: Bool) async throws(ManagementError) -> ManagementSettings {
        let channel = try ManagementChannel()
        do {
            let settings = on ? try await channel.powerOn(hci) : try await channel.powerOff(hci)
            await channel.close()
            return settings
        } catch {
            await channel.close()
            throw error
        }
    }

    /// A GATT client and, when the command asked for security, the pairing agent for its link.
    struct Connection {
        let client: GATTClient
        let agent: PairingAgentSession?
        /// The host-mode stack the link runs on, or nil in kernel mode.
        var session: HostModeSession? = nil

        /// Closes the client, then the agent, then (host mode) the link and the stack.
        func close() async {
            await client.close()
            await agent?.close()
            await session?.close()
        }
    }

    /// A GATT client connected to `peer` from this adapter, its MTU exchanged. With
    /// `--security medium` or `high` a Just Works pairing agent answers the kernel for this
    /// peer while the connection lasts.
    ///
    /// - Throws: ``Failure`` with the connection error and its remedy.
    func connect(_ address: BluetoothAddress, _ options: ConnectOptions) async throws(Failure) -> Connection {
        if transport.isHostMode { return try await hostModeConnect(address, options) }
        let local = try await adapter()
        let agent = options.security == .low ? nil : PairingAgentSession.start(hci: hci, peer: address) { peer, error in
            if let error { printError("blectl: answering the pairing request of \(peer): \(error)") }
        }
        let bearer: SocketATTBearer
        do {
            bearer = try await L2CAPATTChannel.connect(to: address, type: options.random ? .randomStatic : .public,
                                                       from: local.address, security: options.security, timeout: options.timeout,
                                                       maximumMTU: options.mtu)
        } catch {
            await agent?.close()
            throw Failure("\(error)")
        }
        let client = GATTClient(engine: ATTEngine(bearer: bearer))
        do { _ = try await client.exchangeMTU() } catch {
            await Connection(client: client, agent: agent).close()
            throw Self.failure(error, options)
        }
        return Connection(client: client, agent: agent)
    }

    /// The host-mode form of ``connect(_:_:)``: the stack on `--transport` connects as central
    /// (host mode has no SMP yet, so only `--security low`).
    private func hostModeConnect(_ address: BluetoothAddress, _ options: ConnectOptions) async throws(Failure) -> Connection {
        guard options.security == .low else {
            throw Failure("--security \(options.security) needs pairing, which host mode does not do yet; use kernel mode")
        }
        let session = try await HostModeSession.open(self, attMTU: options.mtu)
        let link: LEConnection
        do {
            link = try await session.stack.connections.connect(to: address, addressType: options.random ? .random : .public,
                                                               timeout: options.timeout)
        } catch {
            await session.close()
            throw Failure("connecting to \(address): \(error)")
        }
        let client = GATTClient(engine: ATTEngine(bearer: link.att))
        let connection = Connection(client: client, agent: nil, session: session)
        do { _ = try await client.exchangeMTU() } catch {
            await connection.close()
            throw Self.failure(error, options)
        }
        return connection
    }

    /// The user's sentence for a GATT failure: Insufficient Authentication or Encryption says to
    /// retry with more security (Core v5.4, Vol 3, Part C, 10.3.1).
    static func failure(_ error: GATTClientError, _ options: ConnectOptions) -> Failure {
        switch error.attErrorCode {
        case .insufficientAuthentication?, .insufficientEncryption?, .encryptionKeySizeTooShort?:
            let next = options.security == .low ? "medium" : "high"
            return Failure("\(error): the link is not secure enough; retry with --security \(next)")
        default:
            return Failure("\(error)")
        }
    }

    /// A handle ("0x0003") or, otherwise, a UUID ("2A19", 128-bit forms).
    enum Target: CustomStringConvertible {
        case handle(UInt16)
        case uuid(BluetoothUUID)

        init(_ text: String) throws(Failure) {
            if text.lowercased().hasPrefix("0x") {
                guard let value = UInt16(text.dropFirst(2), radix: 16), value != 0 else {
                    throw Failure("'\(text)' is not a handle (0x0001...0xFFFF)")
                }
                self = .handle(value)
            } else if let uuid = BluetoothUUID(text) {
                self = .uuid(uuid)
            } else {
                throw Failure("'\(text)' is neither a handle (0x0003) nor a UUID (2A19)")
            }
        }

        var description: String {
            switch self {
            case .handle(let handle): return Hex.hex16(handle)
            case .uuid(let uuid): return uuid.descriptionWithName
            }
        }
    }

    /// The characteristic `uuid` on the peer (discovering its database first).
    static func characteristic(_ uuid: BluetoothUUID, on client: GATTClient, _ options: ConnectOptions) async throws(Failure) -> RemoteCharacteristic {
        let services: [RemoteService]
        do { services = try await client.discoverDatabase() } catch { throw failure(error, options) }
        // The value is the command's output; what discovery worked around goes to standard error.
        for line in GATTTreeText.workarounds(await client.diagnostics) { printError("blectl: \(line)") }
        guard let found = services.flatMap(\.characteristics).first(where: { $0.uuid == uuid }) else {
            throw Failure("the peer has no characteristic \(uuid.descriptionWithName)")
        }
        return found
    }

    /// The value handle `target` names on the peer.
    static func valueHandle(_ target: Target, on client: GATTClient, _ options: ConnectOptions) async throws(Failure) -> UInt16 {
        switch target {
        case .handle(let handle): return handle
        case .uuid(let uuid): return try await characteristic(uuid, on: client, options).valueHandle
        }
    }
}
