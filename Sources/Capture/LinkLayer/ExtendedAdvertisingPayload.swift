import BLECore

/// The common extended advertising payload of ADV_EXT_IND, the AUX_* advertising PDUs and
/// AUX_CONNECT_RSP (Core v5.4, Vol 6, Part B, 2.3.4).
///
/// Layout: one octet holding Extended Header Length (bits 0...5) and AdvMode (bits 6...7),
/// then the extended header (Extended Header Length octets, 0...63), then AdvData (the rest
/// of the PDU payload, 0...254 octets).
public struct ExtendedAdvertisingPayload: Hashable, Sendable, CustomStringConvertible {
    /// AdvMode (2 bits, Table 2.18). Unknown values are kept raw.
    public struct AdvMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        /// An AdvMode; only the low 2 bits are kept.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

        /// 0b00: non-connectable and non-scannable.
        public static let nonConnectableNonScannable = AdvMode(rawValue: 0b00)
        /// 0b01: connectable and non-scannable.
        public static let connectable = AdvMode(rawValue: 0b01)
        /// 0b10: non-connectable and scannable.
        public static let scannable = AdvMode(rawValue: 0b10)

        public var description: String {
            switch rawValue {
            case 0b00: return "non-connectable non-scannable"
            case 0b01: return "connectable"
            case 0b10: return "scannable"
            default: return "reserved AdvMode 3"
            }
        }
    }

    /// AdvMode (bits 6...7 of the first octet).
    public var advMode: AdvMode
    /// The extended header; nil when Extended Header Length is 0 (no flags octet either).
    public var extendedHeader: ExtendedHeader?
    /// AdvData: advertising data (AD structures, undecoded) or a fragment of it.
    public var advData: [UInt8]

    /// A payload; its Extended Header Length follows from `extendedHeader`.
    public init(advMode: AdvMode, extendedHeader: ExtendedHeader?, advData: [UInt8] = []) {
        self.advMode = advMode
        self.extendedHeader = extendedHeader
        self.advData = advData
    }

    /// Reads a payload of exactly `length` octets.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` when the payload is
    ///   empty or Extended Header Length runs past it; ``BLEDecodingError/truncated(field:offset:needed:available:)``
    ///   naming the extended header field that runs past Extended Header Length.
    public init(from r: inout ByteReader, length: Int) throws(BLEDecodingError) {
        let start = r.offset
        guard length >= 1 else {
            throw .invalidValue(field: "Length", offset: start, reason: "an extended advertising payload needs at least 1 octet")
        }
        let first = try r.readUInt8("Extended Header Length and AdvMode")
        advMode = AdvMode(rawValue: first >> 6)
        let headerLength = Int(first & 0x3F)
        guard headerLength <= length - 1 else {
            throw .invalidValue(field: "Extended Header Length", offset: start,
                                reason: "\(headerLength) octets but only \(length - 1) follow in the payload")
        }
        if headerLength == 0 {
            extendedHeader = nil
        } else {
            let base = r.offset
            var sub = ByteReader(try r.readSlice(headerLength, "Extended Header"))
            do throws(BLEDecodingError) {
                extendedHeader = try ExtendedHeader(from: &sub)
            } catch {
                throw error.shifted(by: base)
            }
        }
        advData = try r.readBytes(length - 1 - headerLength, "AdvData")
    }

    /// The payload's length in octets: 1 + the extended header + AdvData.
    public var length: Int { 1 + (extendedHeader?.length ?? 0) + advData.count }

    /// Appends the payload.
    public func write(to w: inout ByteWriter) {
        w.writeUInt8(advMode.rawValue << 6 | UInt8(truncatingIfNeeded: extendedHeader?.length ?? 0) & 0x3F)
        extendedHeader?.write(to: &w)
        w.writeBytes(advData)
    }

    public var description: String {
        var parts = [advMode.description]
        if let extendedHeader { parts.append(extendedHeader.description) }
        if !advData.isEmpty { parts.append("AdvData \(advData.count) octets") }
        return parts.joined(separator: ", ")
    }
}

/// The extended header of a common extended advertising payload (Core v5.4, Vol 6, Part B,
/// 2.3.4.1...2.3.4.9): Extended Header Flags (1), then the fields the flags announce, in
/// order AdvA (6), TargetA (6), CTEInfo (1), ADI (2), AuxPtr (3), SyncInfo (18), TxPower (1),
/// then ACAD (the rest of the extended header).
///
/// The flags octet is derived from which fields are present, so it cannot disagree with them.
public struct ExtendedHeader: Hashable, Sendable, CustomStringConvertible {
    /// AdvA: the advertiser's address (flag bit 0).
    public var advA: BluetoothAddress?
    /// TargetA: the scanner's or initiator's address for directed advertising (flag bit 1).
    public var targetA: BluetoothAddress?
    /// CTEInfo: the Constant Tone Extension's time (bits 0...4) and type (bits 6...7) (flag bit 2).
    public var cteInfo: UInt8?
    /// ADI: Advertising Data Info, DID (bits 0...11) and SID (bits 12...15) (flag bit 3).
    public var adi: UInt16?
    /// AuxPtr: where the auxiliary packet is sent (flag bit 4).
    public var auxPtr: AuxPointer?
    /// SyncInfo: periodic advertising synchronization information, 18 octets (flag bit 5).
    public var syncInfo: [UInt8]?
    /// TxPower in dBm (flag bit 6).
    public var txPower: Int8?
    /// Flag bit 7, reserved for future use, kept as received.
    public var reservedFlag: Bool
    /// ACAD: Additional Controller Advertising Data, the octets after the announced fields.
    public var acad: [UInt8]

    /// An extended header with the given fields; absent fields are left out, and the flags follow.
    public init(advA: BluetoothAddress? = nil, targetA: BluetoothAddress? = nil, cteInfo: UInt8? = nil,
                adi: UInt16? = nil, auxPtr: AuxPointer? = nil, syncInfo: [UInt8]? = nil, txPower: Int8? = nil,
                reservedFlag: Bool = false, acad: [UInt8] = []) {
        self.advA = advA
        self.targetA = targetA
        self.cteInfo = cteInfo
        self.adi = adi
        self.auxPtr = auxPtr
        self.syncInfo = syncInfo
        self.txPower = txPower
        self.reservedFlag = reservedFlag
        self.acad = acad
    }

    /// Reads the flags, the fields they announce, and the rest as ACAD.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming a field
    ///   that runs past the extended header.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        let flags = try r.readUInt8("Extended Header Flags")
        advA = flags & 0x01 != 0 ? try BluetoothAddress(from: &r, field: "AdvA") : nil
        targetA = flags & 0x02 != 0 ? try BluetoothAddress(from: &r, field: "TargetA") : nil
        cteInfo = flags & 0x04 != 0 ? try r.readUInt8("CTEInfo") : nil
        adi = flags & 0x08 != 0 ? try r.readUInt16("ADI") : nil
        auxPtr = flags & 0x10 != 0 ? AuxPointer(rawValue: try r.readUInt24("AuxPtr")) : nil
        syncInfo = flags & 0x20 != 0 ? try r.readBytes(18, "SyncInfo") : nil
        txPower = flags & 0x40 != 0 ? Int8(bitPattern: try r.readUInt8("TxPower")) : nil
        reservedFlag = flags & 0x80 != 0
        acad = r.readRemaining()
    }

    /// The Extended Header Flags octet.
    public var flags: UInt8 {
        var f: UInt8 = 0
        if advA != nil { f |= 0x01 }
        if targetA != nil { f |= 0x02 }
        if cteInfo != nil { f |= 0x04 }
        if adi != nil { f |= 0x08 }
        if auxPtr != nil { f |= 0x10 }
        if syncInfo != nil { f |= 0x20 }
        if txPower != nil { f |= 0x40 }
        if reservedFlag { f |= 0x80 }
        return f
    }

    /// Extended Header Length: the flags octet, the fields and ACAD.
    public var length: Int {
        1 + (advA == nil ? 0 : 6) + (targetA == nil ? 0 : 6) + (cteInfo == nil ? 0 : 1) + (adi == nil ? 0 : 2)
            + (auxPtr == nil ? 0 : 3) + (syncInfo?.count ?? 0) + (txPower == nil ? 0 : 1) + acad.count
    }

    /// Appends the flags and the fields.
    public func write(to w: inout ByteWriter) {
        w.writeUInt8(flags)
        advA?.write(to: &w)
        targetA?.write(to: &w)
        if let cteInfo { w.writeUInt8(cteInfo) }
        if let adi { w.writeUInt16(adi) }
        if let auxPtr { w.writeUInt24(auxPtr.rawValue & 0xFF_FFFF) }
        if let syncInfo { w.writeBytes(syncInfo) }
        if let txPower { w.writeUInt8(UInt8(bitPattern: txPower)) }
        w.writeBytes(acad)
    }

    public var description: String {
        var parts: [String] = []
        if let advA { parts.append("AdvA \(advA)") }
        if let targetA { parts.append("TargetA \(targetA)") }
        if let adi { parts.append("ADI DID 0x\(String(adi & 0x0FFF, radix: 16)) SID \(adi >> 12)") }
        if let auxPtr { parts.append("AuxPtr \(auxPtr)") }
        if syncInfo != nil { parts.append("SyncInfo") }
        if let txPower { parts.append("TxPower \(txPower) dBm") }
        if !acad.isEmpty { parts.append("ACAD \(acad.count) octets") }
        return parts.isEmpty ? "empty extended header" : parts.joined(separator: ", ")
    }
}

/// The AuxPtr field of an extended header, 3 octets (Core v5.4, Vol 6, Part B, 2.3.4.5):
/// Channel Index (bits 0...5), CA (bit 6), Offset Units (bit 7), AUX Offset (bits 8...20),
/// AUX PHY (bits 21...23).
public struct AuxPointer: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 24-bit field.
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    /// The secondary channel index of the auxiliary packet, 0...39.
    public var channelIndex: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x3F) }
    /// CA: 0 means the advertiser's clock is 51-500 ppm, 1 means 0-50 ppm.
    public var clockAccuracy: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 6 & 1) }
    /// The unit of ``auxOffset`` in microseconds: 30 (Offset Units 0) or 300 (Offset Units 1).
    public var offsetUnitMicroseconds: Int { rawValue >> 7 & 1 == 0 ? 30 : 300 }
    /// AUX Offset, 13 bits, in units of ``offsetUnitMicroseconds``.
    public var auxOffset: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 8 & 0x1FFF) }
    /// AUX PHY: 0 LE 1M, 1 LE 2M, 2 LE Coded, others reserved.
    public var auxPHY: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 21) }

    public var description: String {
        let phy: String
        switch auxPHY {
        case 0: phy = "LE 1M"
        case 1: phy = "LE 2M"
        case 2: phy = "LE Coded"
        default: phy = "PHY \(auxPHY)"
        }
        return "channel \(channelIndex), offset \(Int(auxOffset) * offsetUnitMicroseconds) us, \(phy)"
    }
}
