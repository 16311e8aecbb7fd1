@testable import BLE
import BLECore
import GATT
import HCI
import Host
import LinuxBluetooth
import Synchronization
import VirtualRadio

/// A radio with a sensor, and a controller served over H4/TCP for a manager under test
/// (``Transport/tcp(host:port:)``), so that the test holds that controller (to inject a
/// Hardware Error) and the TCP transport is exercised. While ``mute()`` is in effect, the
/// commands the manager's host sends never reach the controller.
struct ServedController {
    let radio: VirtualRadio
    let sensor: TestSensor
    let gatt: TestDatabase
    let served: VirtualController
    let listener: H4TCPListener
    let serving: Task<Void, Never>
    private let muted: Muted

    /// The transport a manager reaches the served controller with.
    var transport: Transport { .tcp(host: "127.0.0.1", port: listener.port) }

    static func make(seed: UInt64) async throws -> ServedController {
        let radio = VirtualRadio(seed: seed, timing: .paced(speed: BLETestbed.defaultSpeed))
        let gatt = try TestDatabase()
        let sensor = try await TestSensor.start(on: radio, database: gatt.database,
                                                advertisingData: [.localName(ADLocalName(bytes: Array("Sensor".utf8)))])
        let served = radio.makeController()
        let listener = try H4TCPListener(host: "127.0.0.1", port: 0)
        let muted = Muted()
        let serving = Task {
            for await host in listener.connections {
                let controller = served.attach()
                async let down: Void = { for await packet in controller.packets { try? await host.send(packet) } }()
                for await packet in host.packets {
                    if case .command = packet, muted.isOn { continue }
                    try? await controller.send(packet)
                }
                await controller.close()
                await down
                return
            }
        }
        return ServedController(radio: radio, sensor: sensor, gatt: gatt, served: served, listener: listener, serving: serving,
                                muted: muted)
    }

    /// A central manager on the served controller, powered on.
    func central(options: CentralManager.Options = .init()) async throws -> CentralManager {
        try await BLETestbed.poweredOn(CentralManager(transport: transport, options: options))
    }

    /// From now on, the controller hears no command.
    func mute() { muted.set() }

    /// Ends the serving and the radio (close the managers first).
    func close() async {
        listener.close()
        await serving.value
        radio.shutDown()
    }

    /// The mute flag the test sets and the serving task reads.
    private final class Muted: Sendable {
        private let flag = Mutex(false)
        var isOn: Bool { flag.withLock { $0 } }
        func set() { flag.withLock { $0 = true } }
    }
}
