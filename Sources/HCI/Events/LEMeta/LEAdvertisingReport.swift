import BLECore

/// One report of the HCI LE Advertising Report event, subevent 0x02
/// (Core v5.4, Vol 4, Part E, 7.7.65.2): a legacy advertising or scan-response PDU.
///
/// Per report, in order: Event_Type (1), Address_Type (1), Address (6), Data_Length (1),
/// Data (Data_Length octets, 0...31), RSSI (1, signed, dBm; 127 means not available).
/// Reports follow one another, each complete, after the event's Num_Reports octet, as
/// controllers send them.
public struct LEAdvertisingReport: HCIParameterLayout {
    /// The legacy advertising PDU type that produced the report. Unknown values are kept raw.
    public struct EventType: HCIFieldValue {
        /// The value as carried on the wire.
        public let rawValue: UInt8
        /// The value whose raw value is `rawValue`; every raw value is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0x00: connectable and scannable undirected advertising (ADV_IND).
        public static let advInd = EventType(rawValue: 0x00)
        /// 0x01: connectable directed advertising (ADV_DIRECT_IND).
        public static let advDirectInd = EventType(rawValue: 0x01)
        /// 0x02: scannable undirected advertising (ADV_SCAN_IND).
        public static let advScanInd = EventType(rawValue: 0x02)
        /// 0x03: non-connectable undirected advertising (ADV_NONCONN_IND).
        public static let advNonconnInd = EventType(rawValue: 0x03)
        /// 0x04: scan response (SCAN_RSP).
        public static let scanRsp = EventType(rawValue: 0x04)

        /// Whether the advertiser accepts connections (ADV_IND, ADV_DIRECT_IND).
        public var isConnectable: Bool { self == .advInd || self == .advDirectInd }
        /// Whether the report carries scan-response data rather than advertising data.
        public var isScanResponse: Bool { self == .scanRsp }

        /// The value on one line, for logs and capture decoders: "ADV_IND", "SCAN_RSP", or
        /// "event type 0x07" for a value the specification does not define.
        public var description: String {
            var out = TextOutput(capacity: 16)
            writeDescription(to: &out)
            return out.string
        }

        /// Appends ``description`` to `out`.
        public func writeDescription(to out: inout TextOutput) {
            switch self {
            case .advInd: out.write("ADV_IND")
            case .advDirectInd: out.write("ADV_DIRECT_IND")
            case .advScanInd: out.write("ADV_SCAN_IND")
            case .advNonconnInd: out.write("ADV_NONCONN_IND")
            case .scanRsp: out.write("SCAN_RSP")
            default:
                out.write("event type 0x")
                out.writeHex(UInt64(rawValue), digits: 2)
            }
        }
    }

    /// Event_Type: the legacy PDU received.
    public var eventType: EventType
    /// Address_Type: the advertiser's address type (public, random, or a resolved identity).
    public var addressType: LEAddressType
    /// Address: the advertiser's address.
    public var address: BluetoothAddress
    /// Advertising data or scan-response data (AD structures, undecoded), 0...31 octets.
    public var data: [UInt8]
    /// Received signal strength in dBm, -127...+20; 127 means not available.
    public var rssi: Int8

    /// A value from its fields.
    public init(eventType: EventType, addressType: LEAddressType, address: BluetoothAddress, data: [UInt8], rssi: Int8) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.data = data
        self.rssi = rssi
    }

    /// An empty ADV_IND report from the public address 00:00:00:00:00:00, which decoding fills in.
    public init() {
        self.init(eventType: .advInd, addressType: .public, address: .zero, data: [], rssi: 127)
    }

    /// The report's fields in order; ``HCIParameterLayout/init(from:)`` reads one report and
    /// ``HCIParameterLayout/write(to:)`` appends one.
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&eventType, "Event_Type")
        try coder.code(&addressType, "Address_Type")
        try coder.code(&address, "Address")
        try coder.code(lengthPrefixed: &data, lengthField: "Data_Length", "Data")
        try coder.code(dBm: &rssi, "RSSI")
    }
}
