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
    ///   - options: the ATT Rx MTU the links offer (23...517 octets) and the capture file.
    ///   - staticRandomAddress: the address a restored manager used (host mode, on a controller
    ///     without a public address): bring-up sets it again rather than choose a new one.
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func peripheral(_ transport: Transport, options: ManagerOptions,
                           staticRandomAddress: BluetoothAddress? = nil) async throws(BackendFailure) -> any PeripheralBackend {
        if case .kernel(let hci) = transport {
            return try await KernelModeBackend.start(hci: hci, attMTU: options.attMTU, capture: options.captureFile, role: .peripheral)
        }
        return try await HostModeBackend.start(transport, attMTU: options.attMTU, capture: options.captureFile, role: .peripheral,
                                               staticRandomAddress: staticRandomAddress)
    }
}
