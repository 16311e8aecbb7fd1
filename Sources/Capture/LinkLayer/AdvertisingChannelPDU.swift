import BLECore

/// An advertising physical channel PDU: a 16-bit header and a payload
/// (Core v5.4, Vol 6, Part B, 2.3).
///
/// Header, 2 octets: PDU Type (bits 0...3), RFU (bit 4), ChSel (bit 5), TxAdd (bit 6),
/// RxAdd (bit 7), then Length (8 bits, the payload's octets). The payload's layout depends
/// on the PDU type (``Payload``); addresses and advertising data are kept as octets.
public struct AdvertisingChannelPDU: Hashable, Sendable, CustomStringConvertible {
    /// The payload of an advertising physical channel PDU, by PDU type.
    public enum Payload: Hashable, Sendable {
        /// ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND (2.3.1.1, 2.3.1.3, 2.3.1.4): AdvA (6),
        /// AdvData (0...31 octets).
        case undirected(advA: BluetoothAddress, advData: [UInt8])
        /// ADV_DIRECT_IND (2.3.1.2): AdvA (6), TargetA (6).
        case directed(advA: BluetoothAddress, targetA: BluetoothAddress)
        /// SCAN_REQ and AUX_SCAN_REQ (2.3.2.1): ScanA (6), AdvA (6).
        case scanRequest(scanA: BluetoothAddress, advA: BluetoothAddress)
        /// SCAN_RSP (2.3.2.2): AdvA (6), ScanRspData (0...31 octets).
        case scanResponse(advA: BluetoothAddress, scanRspData: [UInt8])
        /// CONNECT_IND and AUX_CONNECT_REQ (2.3.3.1): InitA (6), AdvA (6), LLData (22).
        case connectIndication(initA: BluetoothAddress, advA: BluetoothAddress, llData: ConnectIndLLData)
        /// ADV_EXT_IND, the AUX_* advertising PDUs and AUX_CONNECT_RSP (2.3.4).
        case extended(ExtendedAdvertisingPayload)
        /// A reserved PDU type: the payload's octets.
        case reserved([UInt8])
    }

    /// The largest AdvData or ScanRspData of a legacy advertising PDU, in octets.
    public static let maximumLegacyDataLength = 31

    /// PDU Type (header bits 0...3).
    public var pduType: AdvertisingPDUType
    /// Header bit 4, reserved for future use, kept as received.
    public var reservedBit: Bool
    /// ChSel: the advertiser (or initiator) supports channel selection algorithm #2.
    public var chSel: Bool
    /// TxAdd: the transmitter's address (AdvA, ScanA or InitA) is random (true) or public (false).
    public var txAdd: Bool
    /// RxAdd: the receiver's address (TargetA or AdvA of a request) is random (true) or public (false).
    public var rxAdd: Bool
    /// The payload, decoded by PDU type; Length is its encoded size.
    public var payload: Payload

    /// A PDU. The caller chooses a `payload` case that matches `pduType`; the Length field
    /// is the payload's encoded size, which must not exceed 255 octets.
    public init(pduType: AdvertisingPDUType, chSel: Bool = false, txAdd: Bool = false, rxAdd: Bool = false,
                reservedBit: Bool = false, payload: Payload) {
        self.pduType = pduType
        self.chSel = chSel
        self.txAdd = txAdd
        self.rxAdd = rxAdd
        self.reservedBit = reservedBit
        self.payload = payload
    }

    /// Reads the header and exactly Length octets of payload.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or payload is short; ``BLEDecodingError/invalidValue(field:offset:reason:)`` when
    ///   Length does not fit the PDU type (for example an ADV_DIRECT_IND that is not 12
    ///   octets, or AdvData longer than 31 octets).
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        let bits = try r.readUInt8("PDU Type and flags")
        let lengthOffset = r.offset
        let length = Int(try r.readUInt8("Length"))
        let type = AdvertisingPDUType(rawValue: bits)
        pduType = type
        reservedBit = bits & 0x10 != 0
        chSel = bits & 0x20 != 0
        txAdd = bits & 0x40 != 0
        rxAdd = bits & 0x80 != 0

        func require(_ valid: Bool, _ expectation: String) throws(BLEDecodingError) {
            if !valid {
                throw .invalidValue(field: "Length", offset: lengthOffset,
                                    reason: "\(type) needs \(expectation), Length is \(length)")
            }
        }
        let legacyDataRange = 6...(6 + Self.maximumLegacyDataLength)
        switch type {
        case .advInd, .advNonconnInd, .advScanInd:
            try require(legacyDataRange.contains(length), "6...37 octets")
            let advA = try BluetoothAddress(from: &r, field: "AdvA")
            payload = .undirected(advA: advA, advData: try r.readBytes(length - 6, "AdvData"))
        case .advDirectInd:
            try require(length == 12, "12 octets")
            let advA = try BluetoothAddress(from: &r, field: "AdvA")
            payload = .directed(advA: advA, targetA: try BluetoothAddress(from: &r, field: "TargetA"))
        case .scanReq:
            try require(length == 12, "12 octets")
            let scanA = try BluetoothAddress(from: &r, field: "ScanA")
            payload = .scanRequest(scanA: scanA, advA: try BluetoothAddress(from: &r, field: "AdvA"))
        case .scanRsp:
            try require(legacyDataRange.contains(length), "6...37 octets")
            let advA = try BluetoothAddress(from: &r, field: "AdvA")
            payload = .scanResponse(advA: advA, scanRspData: try r.readBytes(length - 6, "ScanRspData"))
        case .connectInd:
            try require(length == 12 + ConnectIndLLData.length, "34 octets")
            let initA = try BluetoothAddress(from: &r, field: "InitA")
            let advA = try BluetoothAddress(from: &r, field: "AdvA")
            payload = .connectIndication(initA: initA, advA: advA, llData: try ConnectIndLLData(from: &r))
        case .advExtInd, .auxConnectRsp:
            payload = .extended(try ExtendedAdvertisingPayload(from: &r, length: length))
        default:
            payload = .reserved(try r.readBytes(length, "Payload"))
        }
    }

    /// Appends the header and payload.
    public func write(to w: inout ByteWriter) {
        var bits = pduType.rawValue
        if reservedBit { bits |= 0x10 }
        if chSel { bits |= 0x20 }
        if txAdd { bits |= 0x40 }
        if rxAdd { bits |= 0x80 }
        w.writeUInt8(bits)
        let lengthIndex = w.count
        w.writeUInt8(0)
        switch payload {
        case let .undirected(advA, data), let .scanResponse(advA, data):
            advA.write(to: &w)
            w.writeBytes(data)
        case let .directed(first, second), let .scanRequest(first, second):
            first.write(to: &w)
            second.write(to: &w)
        case let .connectIndication(initA, advA, llData):
            initA.write(to: &w)
            advA.write(to: &w)
            llData.write(to: &w)
        case let .extended(extended):
            extended.write(to: &w)
        case let .reserved(octets):
            w.writeBytes(octets)
        }
        w.bytes[lengthIndex] = UInt8(truncatingIfNeeded: w.count - lengthIndex - 1)
    }

    /// The advertiser's address: AdvA of any PDU that carries one.
    public var advA: BluetoothAddress? {
        switch payload {
        case let .undirected(advA, _), let .directed(advA, _), let .scanRequest(_, advA),
             let .scanResponse(advA, _), let .connectIndication(_, advA, _):
            return advA
        case let .extended(extended):
            return extended.extendedHeader?.advA
        case .reserved:
            return nil
        }
    }

    /// AdvData, ScanRspData or the extended AdvData; nil for PDUs without data.
    public var advertisingData: [UInt8]? {
        switch payload {
        case let .undirected(_, data), let .scanResponse(_, data): return data
        case let .extended(extended): return extended.advData
        default: return nil
        }
    }

    /// One line: "ADV_IND AdvA 7D:43:82:42:23:16 (random), AdvData 25 octets".
    public var description: String {
        let tx = txAdd ? "random" : "public"
        let rx = rxAdd ? "random" : "public"
        switch payload {
        case let .undirected(advA, data):
            return "\(pduType) AdvA \(advA) (\(tx)), AdvData \(data.count) octets"
        case let .directed(advA, targetA):
            return "\(pduType) AdvA \(advA) (\(tx)), TargetA \(targetA) (\(rx))"
        case let .scanRequest(scanA, advA):
            return "\(pduType) ScanA \(scanA) (\(tx)), AdvA \(advA) (\(rx))"
        case let .scanResponse(advA, data):
            return "\(pduType) AdvA \(advA) (\(tx)), ScanRspData \(data.count) octets"
        case let .connectIndication(initA, advA, llData):
            return "\(pduType) InitA \(initA) (\(tx)), AdvA \(advA) (\(rx)), \(llData)"
        case let .extended(extended):
            return "\(pduType) \(extended)"
        case let .reserved(octets):
            return "\(pduType), \(octets.count) octets"
        }
    }
}
