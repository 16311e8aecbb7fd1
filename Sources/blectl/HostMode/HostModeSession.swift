import Host
import VirtualRadio

/// A host-mode stack for one blectl command: the transport `--transport` chose (with `--capture`
/// around it), brought up by ``HostStack``.
struct HostModeSession {
    let stack: HostStack
    /// The radio of `--transport virtual`, kept for the command's life.
    let radio: VirtualRadio?

    /// Opens the transport and brings the controller up.
    ///
    /// - Throws: ``KernelContext/Failure`` naming the transport and what failed.
    /// - Parameter attMTU: the Rx MTU the links' ATT bearers offer (`--mtu`), in octets.
    static func open(_ context: KernelContext, attMTU: UInt16 = 517) async throws(KernelContext.Failure) -> HostModeSession {
        let (transport, radio) = try await context.transport.open(capture: context.capture)
        do {
            let stack = try await HostStack.start(on: transport, configuration: LEConnectionManager.Configuration(attMTU: attMTU))
            return HostModeSession(stack: stack, radio: radio)
        } catch {
            await transport.close()
            radio?.shutDown()
            throw KernelContext.Failure("\(context.transport): \(error)")
        }
    }

    /// Ends the links, the flow and the transport.
    func close() async {
        await stack.close()
        radio?.shutDown()
    }
}
