@testable import BLE
import BLECore
import Foundation
import GATT
import Host
import Testing

extension CentralManager {
    /// Returns once the state file holds every change made so far.
    func stateWritten() async { await core.restoration?.writer.written() }

    /// Closes the manager's HCI transport under it, as the kernel closes a killed process's
    /// socket: the manager learns of it only as the transport's end.
    func closeTransportAbruptly() async {
        guard let backend = await core.backend as? HostModeBackend else { return }
        await backend.stack.transport.close()
    }
}

extension PeripheralManager {
    /// Returns once the state file holds every change made so far.
    func stateWritten() async { await core.restoration?.writer.written() }
}

/// The first ATT octet of each PDU: its opcode.
func opcodes(_ pdus: [[UInt8]]) -> [UInt8] { pdus.map { $0.first ?? 0 } }

/// ATT_READ_BY_TYPE_REQ over 0x0001...0xFFFF for 0x2B2A, the Database Hash (Core v5.4, Vol 3,
/// Part G, 7.3): opcode 08, handles 0001 and FFFF, the UUID 2B2A, least significant octet first.
let databaseHashRead: [UInt8] = [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x2A, 0x2B]

/// The tree of a peripheral as comparable values: each service's UUID and handle, its
/// characteristics' UUIDs and value handles, their descriptors' handles.
func shape(_ services: [Service]?) -> [String] {
    (services ?? []).map { service in
        let characteristics = (service.characteristics ?? []).map { characteristic in
            "\(characteristic.uuid)@\(characteristic.remote.valueHandle)[" + (characteristic.descriptors ?? []).map { "\($0.uuid)@\($0.handle)" }.joined(separator: " ") + "]"
        }
        let includes = (service.includedServices ?? []).map { "\($0.uuid)@\($0.remote.handle)" }
        return "\(service.uuid)@\(service.remote.handle) includes \(includes) \(characteristics)"
    }
}

/// The next event that is not a restoration problem, the problems before it collected.
func nextEvent(_ events: inout AsyncStream<CentralEvent>.Iterator, problems: inout [RestorationProblem]) async -> CentralEvent? {
    while let event = await events.next() {
        if case .restorationProblem(let problem) = event {
            problems.append(problem)
            continue
        }
        return event
    }
    return nil
}
