import ATT
import BLECore
import HCI

/// Names one logical link in a capture: an HCI connection handle on one controller, or an
/// over-the-air connection by its access address.
public enum LinkID: Hashable, Sendable, Comparable, CustomStringConvertible {
    case hci(controller: UInt16?, handle: UInt16)
    case air(accessAddress: UInt32)

    public var description: String {
        switch self {
        case let .hci(controller, handle):
            let h = "handle 0x" + Hex.encode([UInt8(handle >> 8), UInt8(handle & 0xFF)])
            return controller.map { "hci\($0) \(h)" } ?? h
        case let .air(aa):
            return "access address 0x" + String(aa, radix: 16, uppercase: false)
        }
    }

    public static func < (a: LinkID, b: LinkID) -> Bool { a.description < b.description }
}

/// What the dissector knows about one link: who is at the other end, the ATT bearer's state
/// (MTU, the request awaiting a response in each direction) and the GATT table learned so far.
struct LinkState: Sendable {
    var id: LinkID
    var peerAddress: BluetoothAddress?
    var peerAddressType: String?
    var localAddress: BluetoothAddress?
    /// "central" or "peripheral": the local controller's role (HCI), or nil over the air.
    var role: String?
    /// Record indices of the connection's first and last sighting.
    var firstRecord: Int
    var lastRecord: Int
    var connectionEventSeen = false
    var disconnectReason: String?
    var isEncrypted = false
    /// ATT_MTU once an Exchange MTU pair was seen (Core v5.4, Vol 3, Part F, 3.4.2).
    var attMTU: Int?
    var clientRxMTU: UInt16?
    var attPDUCount = 0
    /// The outstanding ATT request sent in each direction.
    var pendingRequests: [CaptureDirection: ATTPDU] = [:]
    var gatt = ReconstructedGATTTable()

    init(id: LinkID, record: Int) {
        self.id = id
        self.firstRecord = record
        self.lastRecord = record
    }

    /// Tracks `pdu`, sent in `direction`, on this link's ATT bearer and returns its annotation.
    ///
    /// A request waits for the response that comes back in the other direction (one outstanding
    /// request per direction, Core v5.4, Vol 3, Part F, 3.3.2); the pair teaches the GATT table.
    mutating func track(_ pdu: ATTPDU, direction: CaptureDirection) -> ATTAnnotation {
        attPDUCount += 1
        var annotation = ATTAnnotation()
        switch pdu.opcode.kind {
        case .request:
            pendingRequests[direction] = pdu
            if case .exchangeMTURequest(let r) = pdu { clientRxMTU = r.clientRxMTU }
        case .response:
            let requestDirection = direction.reversed
            if let request = pendingRequests.removeValue(forKey: requestDirection) {
                annotation.request = request
                gatt.learn(request: request, response: pdu)
                if case .exchangeMTUResponse(let r) = pdu, let client = clientRxMTU {
                    attMTU = Int(r.effectiveMTU(clientRxMTU: client))
                }
                if let h = request.attributeHandle { annotation.handleNames[h] = gatt.annotation(forHandle: h) }
            }
        default:
            break
        }
        // The attribute a PDU names outside of lists is the one worth a name in one line. An Error
        // Response's handle may be the start of a searched range (Attribute Not Found): it is
        // named through the request it answers, when that names one attribute.
        if let h = pdu.attributeHandle { annotation.handleNames[h] = gatt.annotation(forHandle: h) }
        annotation.valueText = stringValue(of: pdu, answering: annotation.request)
        annotation.discovery = DiscoveryText.parameters(of: pdu, answering: annotation.request)
        return annotation
    }

    /// Attributes whose values are UTF-8 strings: Device Name, the Device Information strings
    /// (Model Number, Serial Number, Firmware, Hardware and Software Revision, Manufacturer Name)
    /// and Characteristic User Description.
    static let stringAttributes: Set<BluetoothUUID> = Set([0x2A00, 0x2A24, 0x2A25, 0x2A26, 0x2A27, 0x2A28, 0x2A29, 0x2901]
        .map { BluetoothUUID($0) })

    /// The value of `pdu` as text when it is a read response or notification of a string
    /// attribute, learned from discovery, and valid UTF-8. The attribute is the one the PDU
    /// names (``ATTPDU/attributeHandle``), or for a Read Response the one its request names.
    func stringValue(of pdu: ATTPDU, answering request: ATTPDU?) -> String? {
        let value: [UInt8]
        switch (pdu, request) {
        case let (.readResponse(r), .readRequest?): value = r.value
        case let (.handleValueNotification(n), _): value = n.value
        case let (.handleValueIndication(n), _): value = n.value
        default: return nil
        }
        guard let handle = pdu.attributeHandle ?? request?.attributeHandle else { return nil }
        let uuid = gatt.characteristic(withValueHandle: handle)?.uuid ?? gatt.descriptors[handle]
        guard let uuid, Self.stringAttributes.contains(uuid), !value.isEmpty,
              let text = String(validating: value, as: UTF8.self) else { return nil }
        return text
    }
}

/// A device the capture saw: an advertiser, or the peer of a connection.
struct SeenDevice: Sendable {
    var address: BluetoothAddress
    var addressType: String
    var name: String?
    var advertisingReports = 0
    var lastRSSI: Int8?
    var connectable = false
    var firstRecord: Int
}
