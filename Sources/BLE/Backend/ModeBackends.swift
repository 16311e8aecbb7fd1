import BLECore
/// Starts the mode a ``Transport`` names: kernel mode for ``Transport/kernel(hci:)``
/// (``KernelModeBackend``), host mode for every other transport (``HostModeBackend``). The
/// managers above see only ``CentralBackend`` and ``PeripheralBackend``.
enum ModeBackends {
    /// A central manager's mode on `transport`.
    ///
    /// - Parameter options: the ATT Rx MTU the links offer (23...517 octets) and the capture file.
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func central(_ transport: Transport, options: ManagerOptions) async throws(BackendFailure) -> any CentralBackend {
        if case .kernel(let hci) = transport {
            return try await KernelModeBackend.start(hci: hci, attMTU: options.attMTU, capture: options.captureFile, role: .central)
        }
        return try await HostModeBackend.start(transport, attMTU: options.attMTU, capture: options.captureFile, role: .central)
    }

    /// A peripheral manager's mode on `transport`.
    ///
    /// - Parameters:
    ///   - options: the ATT Rx MTU the links offer (23...517 octets), the capture file, the
    ///     links' required security and kernel mode's pairing agent.
    ///   - staticRandomAddress: the address a restored manager used (host mode, on a controller
    ///     without a public address): bring-up sets it again rather than choose a new one.
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func peripheral(_ transport: Transport, options: ManagerOptions,
                           staticRandomAddress: BluetoothAddress? = nil) async throws(BackendFailure) -> any PeripheralBackend {
        if case .kernel(let hci) = transport {
            return try await KernelModeBackend.start(hci: hci, attMTU: options.attMTU, capture: options.captureFile, role: .peripheral,
                                                     security: options.requiredLinkSecurity,
                                                     acceptsJustWorksPairing: options.acceptsJustWorksPairing)
        }
        guard options.requiredLinkSecurity == .none else {
            throw BackendFailure(state: .unsupported, error: .unsupported(
                "links with security \(options.requiredLinkSecurity) need pairing, which host mode does not do yet (it has no SMP); use kernel mode (.kernel(hci:))"))
        }
        return try await HostModeBackend.start(transport, attMTU: options.attMTU, capture: options.captureFile, role: .peripheral,
                                               staticRandomAddress: staticRandomAddress)
    }
}
