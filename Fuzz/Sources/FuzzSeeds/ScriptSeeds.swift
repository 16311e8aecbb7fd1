import BLECore
import GATT
import PDUScript

/// Seeds from the PDU scripts in Fixtures/gatt-scripts: every PDU for the ATT decoder; each
/// server-role script as a GATT server harness input (its database, each of the three link
/// securities, the PDUs it sends); each client-role script as a GATT client harness input (the
/// procedure its first trigger names, the trigger's handles, UUID and value, and each PDU the
/// script sends as one group).
struct ScriptSeeds {
    /// The database fixtures in the order the server harness loads them (the ones that load).
    let databases: [String]

    func add(_ script: PDUScript, to seeds: inout CaptureSeeds) {
        var sent: [[UInt8]] = []
        for step in script.steps {
            switch step {
            case .send(let pdu, _):
                sent.append(pdu)
                seeds.add("FuzzATTPDU", pdu)
            case .expect(let pattern, _):
                seeds.add("FuzzATTPDU", pattern.octets.map { $0 ?? 0 })
            default:
                break
            }
        }
        switch script.role {
        case .server:
            let index = script.database.flatMap { name in databases.firstIndex { $0.hasSuffix("/" + name) } } ?? 0
            let pdus = sent.flatMap { [UInt8(min($0.count, 255))] + $0.prefix(255) }
            for security: UInt8 in 0...2 { seeds.add("FuzzGATTServer", [UInt8(index), security, 0] + pdus) }
        case .client:
            guard let (procedure, arguments) = clientTrigger(script) else { return }
            let groups = sent.flatMap { [1, UInt8(min($0.count, 255))] + $0.prefix(255) }
            seeds.add("FuzzGATTClient", [procedure] + arguments + groups)
        }
    }

    /// The client harness's procedure octet and argument octets for the script's first trigger
    /// that names a procedure.
    func clientTrigger(_ script: PDUScript) -> (UInt8, [UInt8])? {
        // The order of GATTClientProcedure's cases.
        let procedures = ["exchange-mtu", "discover-primary", "discover-primary-uuid", "discover-included",
                          "discover-characteristics", "", "discover-descriptors", "discover-database",
                          "read-database-hash", "", "read", "read-long", "read-by-uuid", "read-multiple",
                          "read-multiple-variable", "write", "write-long", "reliable-write", "write-command",
                          "signed-write", "subscribe"]
        for step in script.steps {
            guard case let .trigger(name, arguments, _) = step, let index = procedures.firstIndex(of: name) else { continue }
            var handles: [UInt16] = []
            var uuid: UInt16 = 0
            var value: [UInt8] = []
            for argument in arguments {
                if argument.hasPrefix("0x"), let handle = UInt16(argument.dropFirst(2), radix: 16) {
                    handles.append(handle)
                } else if argument.count == 4, uuid == 0, let short = UInt16(argument, radix: 16) {
                    uuid = short
                } else if let octets = Hex.decode(argument) {
                    value += octets
                }
            }
            let first = handles.first ?? 0x0001, second = handles.dropFirst().first ?? 0xFFFF
            let octets: [UInt8] = [UInt8(first & 0xFF), UInt8(first >> 8), UInt8(second & 0xFF), UInt8(second >> 8),
                                   UInt8(uuid & 0xFF), UInt8(uuid >> 8), UInt8(min(value.count, 255))] + value.prefix(255) + [0x3A]
            return (UInt8(index), octets)
        }
        return nil
    }
}
