import Capture
import HCI
import Host
import LinuxBluetooth

/// The Host layer on an adapter's raw HCI channel, in kernel mode: the command flow and the
/// controller's capabilities (which choose legacy or extended commands), for `scan` and `serve`.
struct HostSession {
    /// The raw channel, inside a ``CapturingHCITransport`` with `--capture`.
    let transport: any HCITransport
    let flow: HCICommandFlow
    let capabilities: LEControllerCapabilities

    /// Opens hci`context.hci`'s raw channel (powering the adapter on unless `--no-power`) and
    /// reads the controller's capabilities.
    ///
    /// - Throws: ``KernelContext/Failure`` naming what failed and what to do.
    static func open(_ context: KernelContext) async throws(KernelContext.Failure) -> HostSession {
        _ = try await context.adapter()
        /// The raw channel, inside a ``CapturingHCITransport`` with `--capture`.
    let transport: any HCITransport
        do { transport = try HCISocketTransport(adapter: context.hci) } catch { throw KernelContext.Failure("\(error)") }
        let flow = HCICommandFlow(transport: transport)
        do {
            let capabilities = try await LEControllerCapabilities.read(from: flow)
            return HostSession(transport: transport, flow: flow, capabilities: capabilities)
        } catch {
            await flow.close()
            throw KernelContext.Failure("reading hci\(context.hci)'s LE capabilities: \(error)")
        }
    }

    func close() async {
        await flow.close()
        await transport.close()
    }
}
