import ATT
import BLE
import BLECore
import Foundation

/// One connection of blectl's GATT client commands, made through the BLE API: a
/// ``CentralManager`` on `--transport` and the ``Peripheral`` at ADDR, retrieved by its
/// identifier (no scan) and connected with `--timeout`, `--security` and `--mtu`.
struct CentralSession {
    let central: CentralManager
    let peripheral: Peripheral
    let arguments: ConnectionArguments

    /// Connects to `address` as `context` and `arguments` say. In kernel mode the adapter is
    /// powered on first unless `--no-power` (``KernelContext/adapter()``).
    ///
    /// - Throws: ``KernelContext/Failure`` with the manager's or the connection's error.
    static func connect(_ address: BluetoothAddress, _ arguments: ConnectionArguments,
                        context: KernelContext) async throws(KernelContext.Failure) -> CentralSession {
        if case .kernel = context.transport { _ = try await context.adapter() }
        let options = ManagerOptions(attMTU: arguments.mtu, captureFile: context.capture.map { URL(fileURLWithPath: $0) })
        let central = CentralManager(transport: context.transport, options: options)
        let identifier = Peripheral.identifier(for: address, type: arguments.random ? .random : .public)
        guard let peripheral = central.retrievePeripherals(withIdentifiers: [identifier]).first else {
            await central.close()
            throw KernelContext.Failure("no peripheral for \(address)")
        }
        do {
            try await central.connect(peripheral, options: ConnectOptions(timeout: arguments.timeout, security: arguments.security))
        } catch {
            await central.close()
            throw KernelContext.Failure("connecting to \(address): \(error)")
        }
        return CentralSession(central: central, peripheral: peripheral, arguments: arguments)
    }

    /// Disconnects and closes the manager.
    func close() async {
        await central.cancelPeripheralConnection(peripheral)
        await central.close()
    }

    /// The user's sentence for `error`: Insufficient Authentication or Encryption (or a key too
    /// short) says to retry with more security (Core v5.4, Vol 3, Part C, 10.3.1).
    func failure(_ error: BLEError) -> KernelContext.Failure {
        if case .att(let code, _) = error, [.insufficientAuthentication, .insufficientEncryption, .encryptionKeySizeTooShort].contains(code) {
            return KernelContext.Failure("\(error): the link is not secure enough; retry with --security \(arguments.nextSecurityWord)")
        }
        return KernelContext.Failure("\(error)")
    }

    /// The peer's whole database (``Peripheral/discoverDatabase()``): every service, primary and
    /// secondary, in handle order.
    ///
    /// - Throws: ``KernelContext/Failure`` with the discovery's error.
    func database() async throws(KernelContext.Failure) -> [Service] {
        do { return try await peripheral.discoverDatabase() } catch { throw failure(error) }
    }

    /// What `target` names on the peer, after discovering its database; what the discovery
    /// worked around goes to standard error (the command's output is the value).
    func find(_ target: AttributeTarget) async throws(KernelContext.Failure) -> AttributeTarget.Attribute {
        let services = try await database()
        for line in GATTTreeText.workarounds(await peripheral.diagnostics) { printError("blectl: \(line)") }
        return try target.find(in: services)
    }
}
