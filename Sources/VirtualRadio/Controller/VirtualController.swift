import BLECore
import HCI

/// One LE controller on a ``VirtualRadio``: the device a host drives over HCI.
///
/// ```swift
/// let controller = radio.makeController(configuration: .init(publicAddress: BluetoothAddress("C0:00:00:00:00:01")))
/// let flow = HCICommandFlow(transport: controller.attach(), clock: radio.clock)
/// _ = try await flow.send(HCIReset())
/// controller.violations        // ACL the host should not have sent, if any
/// ```
///
/// It implements the LE subset of Core v5.4, Vol 4, Part E, 7 listed by its
/// Supported_Commands (``VirtualControllerConfiguration`` says which optional commands):
/// every other opcode gets Unknown HCI Command (0x01), malformed parameters get Invalid HCI
/// Command Parameters (0x12), and every command gets exactly one answer.
public final class VirtualController: Sendable {
    let lifetime: RadioLifetime
    var core: RadioCore { lifetime.core }

    /// The controller's number on its radio, from 0 in the order made.
    public let index: Int
    /// What the controller is.
    public let configuration: VirtualControllerConfiguration
    /// A static random device address (Core v5.4, Vol 6, Part B, 1.3.2.1) for a host of this
    /// controller to set when the controller has no public address, in place of one from the
    /// system's generator: the same for the same radio seed and controller index, so that whole
    /// runs, addresses included, repeat. Drawn from its own generator, so taking it changes
    /// nothing else the radio does.
    public let staticRandomAddress: BluetoothAddress

    init(lifetime: RadioLifetime, index: Int, configuration: VirtualControllerConfiguration, radioSeed: UInt64) {
        self.lifetime = lifetime
        self.index = index
        self.configuration = configuration
        var generator = SplitMix64(seed: radioSeed ^ (0x5EED_ADD4 &* UInt64(index + 1)))
        staticRandomAddress = .staticRandom(using: &generator)
    }

    /// Attaches a host: the returned port carries HCI both ways. A later attach replaces the
    /// earlier one (its `packets` finish and its sends throw `HCITransportError.closed`); the
    /// controller's state stays until the new host's HCI Reset, as a real controller's does
    /// when its host process restarts.
    public func attach() -> VirtualHCIPort {
        let (stream, continuation) = AsyncStream.makeStream(of: HCIPacket.self)
        let attachment: UInt64 = core.withWorld { world in
            let model = world.controllers[index]
            model.port?.finish()
            model.attachment &+= 1
            model.delivered = 0
            model.redirect = nil
            if world.stopped {
                continuation.finish()
                model.port = nil
            } else {
                model.port = continuation
            }
            return model.attachment
        }
        return VirtualHCIPort(lifetime: lifetime, controller: index, attachment: attachment, packets: stream)
    }

    /// What the host did that the controller refused (oversize or surplus ACL, unknown
    /// handles, ...), in order.
    public var violations: [VirtualControllerViolation] {
        core.withWorld { $0.controllers[index].violations }
    }

    /// How many packets the controller has handed to its current host since it attached (all
    /// of them are in the port's `packets` by then): a test can wait for its reader to catch up.
    public var packetsDelivered: Int { core.withWorld { $0.controllers[index].delivered } }

    /// The connection handles this controller has open now, ascending.
    public var connectionHandles: [UInt16] {
        core.withWorld { $0.controllers[index].connections.keys.sorted() }
    }

    /// How many of the controller's ACL buffers hold packets from the host now.
    public var aclBuffersInUse: Int { core.withWorld { $0.controllers[index].buffersInUse } }

    /// Sets the controller's faults (``VirtualFaults``); they apply from now on.
    public func setFaults(_ faults: VirtualFaults) {
        core.withWorld { $0.controllers[index].faults = faults }
    }

    /// Takes the controller out of range of every other controller, or brings it back. Its
    /// links are kept until their supervision timeout: back in range before it, they carry on.
    public func setInRange(_ inRange: Bool) {
        core.withWorld { world in
            world.controllers[index].inRange = inRange
            world.rangeChanged(world.controllers[index])
        }
    }

    /// Sends HCI Hardware Error (0x10) with `code` to the host (unless masked, Vol 4, Part E,
    /// 7.7.16); the controller's state is unchanged.
    public func injectHardwareError(code: UInt8) {
        core.withWorld { world in
            world.emit(HCIEvent.HardwareError(hardwareCode: code).packet, to: world.controllers[index])
        }
    }

    /// The controller loses all state as at power-on, without telling its host (a firmware
    /// crash): links go silent here and end at the peers' supervision timeout (0x08);
    /// advertising, scanning and initiating stop; the masks return to their defaults. With
    /// `hardwareErrorCode`, the host then hears Hardware Error with it.
    public func crash(hardwareErrorCode: UInt8? = nil) {
        core.withWorld { world in
            let model = world.controllers[index]
            world.silence(model)
            if let code = hardwareErrorCode { world.emit(HCIEvent.HardwareError(hardwareCode: code).packet, to: model) }
        }
    }
}
