import Host
import LinuxBluetooth
import VirtualRadio

/// A controller of our virtual radio served as H4 over TCP on 127.0.0.1, for one host in
/// another process (Bumble's `tcp-client:127.0.0.1:PORT`): an ``H4TCPListener`` on a free port
/// and an ``HCITransportBridge`` between the first connection and the controller's HCI port.
/// Test-only; the pattern of HostModeTests' `virtualControllerOverTCP`.
struct ServedController {
    /// The controller the remote host drives.
    let controller: VirtualController
    /// The listener; closed by ``close()``.
    let listener: H4TCPListener
    /// The bridge, once a host has connected; its result is what passed each way.
    let serving: Task<HCITransportBridge.Counts, Never>

    /// Serves a new controller of `radio` on a free loopback port.
    init(on radio: VirtualRadio) throws {
        let controller = radio.makeController()
        let listener = try H4TCPListener(host: "127.0.0.1", port: 0)
        self.controller = controller
        self.listener = listener
        serving = Task {
            for await host in listener.connections {
                return await HCITransportBridge.run(host: host, controller: controller.attach())
            }
            return HCITransportBridge.Counts()
        }
    }

    /// Bumble's name for a transport to this controller.
    var bumbleTransport: String { "tcp-client:127.0.0.1:\(listener.port)" }

    /// Stops listening; a bridge that runs ends when its host closes the connection.
    func close() { listener.close() }
}
