/// Starts the mode a ``Transport`` names: kernel mode for ``Transport/kernel(hci:)``
/// (``KernelModeBackend``), host mode for every other transport (``HostModeBackend``). The
/// managers above see only ``CentralBackend`` and ``PeripheralBackend``.
enum ModeBackends {
    /// A central manager's mode on `transport`.
    ///
    /// - Parameter attMTU: the Rx MTU the links' ATT bearers offer, in octets (23...517).
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func central(_ transport: Transport, attMTU: UInt16) async throws(BackendFailure) -> any CentralBackend {
        if case .kernel(let hci) = transport { return try await KernelModeBackend.start(hci: hci, attMTU: attMTU, role: .central) }
        return try await HostModeBackend.start(transport, attMTU: attMTU, role: .central)
    }

    /// A peripheral manager's mode on `transport`.
    ///
    /// - Parameter attMTU: the Rx MTU the links' ATT bearers offer, in octets (23...517).
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func peripheral(_ transport: Transport, attMTU: UInt16) async throws(BackendFailure) -> any PeripheralBackend {
        if case .kernel(let hci) = transport { return try await KernelModeBackend.start(hci: hci, attMTU: attMTU, role: .peripheral) }
        return try await HostModeBackend.start(transport, attMTU: attMTU, role: .peripheral)
    }
}
