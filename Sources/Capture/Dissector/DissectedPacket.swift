import ATT
import BLECore
import HCI
import L2CAP

/// One capture record as the ``Dissector`` understood it, down to the deepest layer it could
/// reach: HCI, then ACL and L2CAP, then ATT, SMP or LE signaling; or, for over-the-air
/// captures, the link layer and the L2CAP it carries.
public struct DissectedPacket: Sendable {
    /// The record's 0-based position in the file.
    public var index: Int
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    /// False when the file's timestamp for this record could not be represented (the record's
    /// ``CaptureRecord/timestampError``): ``timestamp`` and ``relativeTime`` are then 0.
    public var hasTimestamp = true
    /// Microseconds since the first record of the capture.
    public var relativeTime: Int64
    public var direction: CaptureDirection
    /// Whether ``direction`` was inferred (over the air, from the timing of a connection's
    /// events) rather than given by the capture.
    public var isDirectionInferred = false
    /// The Linux controller index (hciN) for monitor captures.
    public var controllerIndex: UInt16?
    public var content: Content
    /// Things that went wrong around this packet without stopping the decode: reassembly
    /// diagnostics, an L2CAP PDU left incomplete, a retransmission, a bad CRC.
    public var notes: [String] = []

    /// What the record held.
    public enum Content: Sendable {
        /// An HCI Command packet, decoded when its opcode is known and its parameters are valid.
        case command(HCICommandPacket, HCICommandValue?)
        /// An HCI Event packet; advertising reports come with their advertising data decoded.
        case event(HCIEventPacket, HCIEvent, advertising: [AdvertisingSummary])
        /// An HCI ACL Data packet and what its L2CAP reassembly produced.
        case acl(HCIACLDataPacket, L2CAPStage)
        /// An HCI Synchronous (SCO) Data packet, kept raw.
        case sco(HCISynchronousDataPacket)
        /// An HCI ISO Data packet, kept raw.
        case iso(HCIISODataPacket)
        /// A Linux monitor record that is not an HCI packet.
        case monitor(MonitorOpcode, payload: [UInt8])
        /// A PacketLogger record that is not an HCI packet: text (shown as text), LMP, or an
        /// unknown Packet Type (kept raw).
        case packetLogger(PacketLoggerPacketType, payload: [UInt8])
        /// An LE link-layer packet captured over the air (stored out of line, as it is large).
        indirect case linkLayer(LinkLayerRecord, LinkLayerStage)
        /// A record of a link type that is not decoded.
        case unsupported(LinkType, octets: Int)
        /// A record whose octets did not decode at `layer`: the reason names the field and offset.
        case malformed(layer: String, reason: String, octets: [UInt8])
    }

    /// Where an ACL (or link-layer) fragment stands in L2CAP reassembly.
    public enum L2CAPStage: Sendable {
        /// A fragment of an L2CAP PDU that is not complete yet.
        case fragment
        /// The fragment completed an L2CAP PDU (stored out of line, as it is large).
        indirect case complete(L2CAPBasicFrame, L2CAPContent)
        /// The fragment was dropped (the notes say why).
        case dropped
    }

    /// What a link-layer record led to.
    public enum LinkLayerStage: Sendable {
        /// Advertising channel PDU, with its advertising data decoded when it has any.
        case advertising(AdvertisingData?)
        /// A data channel PDU that carries no L2CAP (empty PDU, LL control PDU).
        case linkControl
        /// An L2CAP fragment, or a complete L2CAP PDU.
        case l2cap(L2CAPStage)
        /// A payload sent after encryption started, which cannot be read without the key.
        case encrypted
        /// A retransmission of the previous PDU in the same direction (same SN and payload): not
        /// decoded again.
        case retransmission
        /// A PDU whose CRC does not match: not decoded further.
        case badCRC
        /// An encrypted PDU that the sniffer decrypted with a MIC that does not match: its
        /// payload is not the plaintext, and is not decoded further.
        case badMIC
    }

    /// The ATT PDU this packet completed, if any.
    public var attPDU: ATTPDU? {
        switch content {
        case .acl(_, .complete(_, .att(let pdu, _))), .linkLayer(_, .l2cap(.complete(_, .att(let pdu, _)))): return pdu
        default: return nil
        }
    }

    /// The L2CAP content this packet completed, if any.
    public var l2capContent: L2CAPContent? {
        switch content {
        case .acl(_, .complete(_, let c)), .linkLayer(_, .l2cap(.complete(_, let c))): return c
        default: return nil
        }
    }
}

/// One advertising report of an HCI LE (Extended) Advertising Report event, with its data decoded:
/// its own data, or, for the last fragment of an extended advertising chain, the chain's data
/// joined (Core v5.4, Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4).
public struct AdvertisingSummary: Sendable {
    public var address: BluetoothAddress
    public var addressType: LEAddressType
    /// The report's Event_Type, as the event gave it.
    public var reportEventType: ReportEventType
    /// dBm; nil when the controller reported 127 (not available).
    public var rssi: Int8?
    /// The payload the report completed (``AdvertisingChainReassembler/Disposition/complete``
    /// or ``AdvertisingChainReassembler/Disposition/truncated``), decoded; empty for a fragment
    /// still waiting for the rest of its chain, and for a discarded one.
    public var data: AdvertisingData
    /// What the report did to its payload in the joining of chains.
    public var disposition: AdvertisingChainReassembler.Disposition
    /// How many reports ``data`` was joined from (1 for a report on its own); for a pending
    /// fragment, which fragment of its chain it is (from 1); 0 for a discarded one.
    public var fragments: Int
    /// The report's own Data octets (for the last fragment of a chain, that fragment's alone).
    public var reportOctets: [UInt8]

    /// The Event_Type of a legacy or an extended report (Vol 4, Part E, 7.7.65.2, 7.7.65.13).
    public enum ReportEventType: Hashable, Sendable {
        case legacy(LEAdvertisingReport.EventType)
        case extended(LEExtendedAdvertisingReport.EventType)
    }

    /// "ADV_IND", "SCAN_RSP", or the extended event type's description (made when asked, so
    /// that dissection without text never builds it).
    public var eventType: String {
        switch reportEventType {
        case .legacy(let type): return type.description
        case .extended(let type): return type.description
        }
    }

    /// A summary; by default a report that stands alone, its `data` its own.
    public init(address: BluetoothAddress, addressType: LEAddressType, eventType: ReportEventType, rssi: Int8?, data: AdvertisingData,
                disposition: AdvertisingChainReassembler.Disposition = .complete, fragments: Int = 1, reportOctets: [UInt8]? = nil) {
        self.address = address
        self.addressType = addressType
        self.reportEventType = eventType
        self.rssi = rssi
        self.data = data
        self.disposition = disposition
        self.fragments = fragments
        self.reportOctets = reportOctets ?? data.bytes
    }
}
