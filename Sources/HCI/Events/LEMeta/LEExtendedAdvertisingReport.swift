import BLECore

/// One report of the HCI LE Extended Advertising Report event, subevent 0x0D
/// (Core v5.4, Vol 4, Part E, 7.7.65.13).
///
/// Per report, in order: Event_Type (2), Address_Type (1), Address (6), Primary_PHY (1),
/// Secondary_PHY (1), Advertising_SID (1), TX_Power (1, signed dBm, 127 = not available),
/// RSSI (1, signed dBm, 127 = not available), Periodic_Advertising_Interval (2, 1.25 ms units),
/// Direct_Address_Type (1), Direct_Address (6), Data_Length (1), Data (Data_Length octets).
public struct LEExtendedAdvertisingReport: HCIParameterLayout {
    /// The Event_Type bit field. Reserved bits (7...15) are kept as received.
    public struct EventType: HCIFieldValue {
        /// The value as carried on the wire.
        public let rawValue: UInt16
        /// The value whose raw value is `rawValue`; every raw value is accepted.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Bit 0: connectable advertising.
        public var isConnectable: Bool { rawValue & 0x0001 != 0 }
        /// Bit 1: scannable advertising.
        public var isScannable: Bool { rawValue & 0x0002 != 0 }
        /// Bit 2: directed advertising.
        public var isDirected: Bool { rawValue & 0x0004 != 0 }
        /// Bit 3: the data are a scan response.
        public var isScanResponse: Bool { rawValue & 0x0008 != 0 }
        /// Bit 4: the report came from a legacy advertising PDU.
        public var isLegacy: Bool { rawValue & 0x0010 != 0 }
        /// Bits 5...6: whether the data are complete, to be continued, or truncated.
        public var dataStatus: DataStatus {
            switch rawValue >> 5 & 0b11 {
            case 0b00: return .complete
            case 0b01: return .incompleteMoreToCome
            case 0b10: return .incompleteTruncated
            default: return .reserved
            }
        }
        /// Bits 7...15, reserved for future use (non-zero in some real controllers' reports).
        public var reservedBits: UInt16 { rawValue & 0xFF80 }

        /// The legacy PDU this event type stands for when bit 4 is set, per the table in 7.7.65.13.
        public var legacyPDU: LEAdvertisingReport.EventType? {
            guard isLegacy else { return nil }
            switch rawValue & 0x001F {
            case 0b10011: return .advInd
            case 0b10101: return .advDirectInd
            case 0b10010: return .advScanInd
            case 0b10000: return .advNonconnInd
            case 0b11011, 0b11010: return .scanRsp
            default: return nil
            }
        }

        /// The value on one line, for logs and capture decoders: "legacy ADV_IND, connectable,
        /// scannable", "connectable, more data to come", "non-connectable" when no bit is set.
        public var description: String {
            var out = TextOutput(capacity: 64)
            writeDescription(to: &out)
            return out.string
        }

        /// Appends ``description`` to `out`.
        public func writeDescription(to out: inout TextOutput) {
            let start = out.count
            func part(_ words: StaticString) {
                if out.count != start { out.write(", ") }
                out.write(words)
            }
            if let legacy = legacyPDU {
                part("legacy ")
                legacy.writeDescription(to: &out)
            } else if isLegacy {
                part("legacy")
            }
            if isConnectable { part("connectable") }
            if isScannable { part("scannable") }
            if isDirected { part("directed") }
            if isScanResponse { part("scan response") }
            if dataStatus != .complete { part(dataStatus.words) }
            if reservedBits != 0 {
                part("reserved 0x")
                out.write(string: String(reservedBits, radix: 16))
            }
            if out.count == start { out.write("non-connectable") }
        }
    }

    /// The Data Status of an extended report (Event_Type bits 5...6).
    public enum DataStatus: UInt8, Hashable, Sendable, CustomStringConvertible {
        /// 0b00: complete.
        case complete = 0
        /// 0b01: incomplete, more data to come in later reports.
        case incompleteMoreToCome = 1
        /// 0b10: incomplete, data truncated, no more to come.
        case incompleteTruncated = 2
        /// 0b11: reserved for future use.
        case reserved = 3

        /// The value on one line, for logs and capture decoders: ``words``.
        public var description: String { words.description }

        /// "complete", "more data to come", "truncated" or "data status reserved".
        public var words: StaticString {
            switch self {
            case .complete: return "complete"
            case .incompleteMoreToCome: return "more data to come"
            case .incompleteTruncated: return "truncated"
            case .reserved: return "data status reserved"
            }
        }
    }

    /// Event_Type: the PDU's properties and data status, reserved bits kept.
    public var eventType: EventType
    /// Address_Type: the advertiser's address type; 0xFF for anonymous advertising.
    public var addressType: LEAddressType
    /// Address: the advertiser's address.
    public var address: BluetoothAddress
    /// Primary_PHY: 0x01 LE 1M, 0x03 LE Coded.
    public var primaryPHY: UInt8
    /// Secondary_PHY: 0x00 none, 0x01 LE 1M, 0x02 LE 2M, 0x03 LE Coded.
    public var secondaryPHY: UInt8
    /// Advertising_SID, 0x00...0x0F; 0xFF when there is no ADI field (legacy PDUs).
    public var advertisingSID: UInt8
    /// TX_Power in dBm, -127...+20; 127 means not available.
    public var txPower: Int8
    /// RSSI in dBm, -127...+20; 127 means not available.
    public var rssi: Int8
    /// Periodic_Advertising_Interval in 1.25 ms units; 0 when there is no periodic advertising.
    public var periodicAdvertisingInterval: UInt16
    /// Direct_Address_Type: the target's address type, for directed advertising.
    public var directAddressType: LEAddressType
    /// Direct_Address: the target's address, for directed advertising.
    public var directAddress: BluetoothAddress
    /// This report's fragment of the advertising or scan-response data (0...229 octets).
    public var data: [UInt8]

    /// A value from its fields.
    public init(eventType: EventType, addressType: LEAddressType, address: BluetoothAddress,
                primaryPHY: UInt8 = 0x01, secondaryPHY: UInt8 = 0x00, advertisingSID: UInt8 = 0xFF,
                txPower: Int8 = 127, rssi: Int8 = 127, periodicAdvertisingInterval: UInt16 = 0,
                directAddressType: LEAddressType = .public, directAddress: BluetoothAddress = .zero,
                data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.advertisingSID = advertisingSID
        self.txPower = txPower
        self.rssi = rssi
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.data = data
    }

    /// An empty report with every field zero, which decoding fills in.
    public init() {
        self.init(eventType: EventType(rawValue: 0), addressType: .public, address: .zero,
                  primaryPHY: 0, advertisingSID: 0, txPower: 0, rssi: 0, data: [])
    }

    /// The report's fields in order; ``HCIParameterLayout/init(from:)`` reads one report and
    /// ``HCIParameterLayout/write(to:)`` appends one.
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&eventType, "Event_Type")
        try coder.code(&addressType, "Address_Type")
        try coder.code(&address, "Address")
        try coder.code(&primaryPHY, "Primary_PHY", format: .hex)
        try coder.code(&secondaryPHY, "Secondary_PHY", format: .hex)
        try coder.code(&advertisingSID, "Advertising_SID", format: .hex)
        try coder.code(dBm: &txPower, "TX_Power")
        try coder.code(dBm: &rssi, "RSSI")
        try coder.code(&periodicAdvertisingInterval, "Periodic_Advertising_Interval")
        try coder.code(&directAddressType, "Direct_Address_Type")
        try coder.code(&directAddress, "Direct_Address")
        try coder.code(lengthPrefixed: &data, lengthField: "Data_Length", "Data")
    }
}
