import BLECore

/// The 10-octet radio pseudo-header of LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256), written by
/// sniffers such as Ubertooth before each LE link-layer packet.
///
/// Layout, little-endian: RF Channel (1), Signal Power (1, signed dBm), Noise Power (1, signed
/// dBm), Access Address Offenses (1), Reference Access Address (4), Flags (2). A field whose
/// validity bit in ``flags`` is clear carries no information.
public struct LELLPseudoHeader: Hashable, Sendable, CustomStringConvertible {
    /// The Flags field (2 octets). Unknown bits are kept as received.
    public struct Flags: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0001: the packet was de-whitened.
        public var isDewhitened: Bool { rawValue & 0x0001 != 0 }
        /// 0x0002: ``LELLPseudoHeader/signalPower`` is valid.
        public var isSignalPowerValid: Bool { rawValue & 0x0002 != 0 }
        /// 0x0004: ``LELLPseudoHeader/noisePower`` is valid.
        public var isNoisePowerValid: Bool { rawValue & 0x0004 != 0 }
        /// 0x0008: the packet was decrypted by the capture tool.
        public var isDecrypted: Bool { rawValue & 0x0008 != 0 }
        /// 0x0010: ``LELLPseudoHeader/referenceAccessAddress`` is valid and led to the capture.
        public var isReferenceAccessAddressValid: Bool { rawValue & 0x0010 != 0 }
        /// 0x0020: ``LELLPseudoHeader/accessAddressOffenses`` is valid.
        public var isAccessAddressOffensesValid: Bool { rawValue & 0x0020 != 0 }
        /// 0x0040: the RF channel may be aliased (the sniffer could not tell some channels apart).
        public var isChannelAliased: Bool { rawValue & 0x0040 != 0 }
        /// Bits 7...9: what kind of PDU follows and, for data, which way it went.
        public var pduType: PDUType { PDUType(rawValue: UInt8(truncatingIfNeeded: rawValue >> 7 & 0b111)) }
        /// 0x0400: the capture tool checked the CRC.
        public var isCRCChecked: Bool { rawValue & 0x0400 != 0 }
        /// 0x0800: the CRC passed that check.
        public var isCRCValid: Bool { rawValue & 0x0800 != 0 }
        /// 0x1000: the capture tool checked the MIC.
        public var isMICChecked: Bool { rawValue & 0x1000 != 0 }
        /// 0x2000: the MIC passed that check.
        public var isMICValid: Bool { rawValue & 0x2000 != 0 }
        /// Bits 14...15: the PHY the packet was received on (0 LE 1M, 1 LE 2M, 2 LE Coded, 3 reserved).
        public var phy: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 14) }

        public var description: String {
            var parts = ["0x" + Hex.encode([UInt8(rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]), pduType.description]
            if isCRCChecked { parts.append(isCRCValid ? "CRC valid" : "CRC bad") }
            if isDecrypted { parts.append("decrypted") }
            return parts.joined(separator: ", ")
        }
    }

    /// The PDU Type bits of ``Flags`` (bits 7...9). Unknown values are kept raw.
    public struct PDUType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0: an advertising or data physical channel PDU, direction unspecified.
        public static let advertisingOrData = PDUType(rawValue: 0)
        /// 1: an auxiliary advertising PDU (secondary advertising channel or periodic train).
        public static let auxiliaryAdvertising = PDUType(rawValue: 1)
        /// 2: a data physical channel PDU from the Central to the Peripheral.
        public static let dataCentralToPeripheral = PDUType(rawValue: 2)
        /// 3: a data physical channel PDU from the Peripheral to the Central.
        public static let dataPeripheralToCentral = PDUType(rawValue: 3)
        /// 4: a connected isochronous PDU from the Central to the Peripheral.
        public static let cisCentralToPeripheral = PDUType(rawValue: 4)
        /// 5: a connected isochronous PDU from the Peripheral to the Central.
        public static let cisPeripheralToCentral = PDUType(rawValue: 5)
        /// 6: a broadcast isochronous PDU.
        public static let broadcastIsochronous = PDUType(rawValue: 6)

        public var description: String {
            switch rawValue {
            case 0: return "advertising or data"
            case 1: return "auxiliary advertising"
            case 2: return "data, Central to Peripheral"
            case 3: return "data, Peripheral to Central"
            case 4: return "CIS, Central to Peripheral"
            case 5: return "CIS, Peripheral to Central"
            case 6: return "BIS"
            default: return "PDU type \(rawValue)"
            }
        }
    }

    /// The header's size in octets.
    public static let length = 10

    /// The RF channel, 0...39: frequency 2402 + 2 x channel MHz (Core v5.4, Vol 6, Part A, 2).
    /// This is the RF channel, not the link layer's channel index.
    public var rfChannel: UInt8
    /// Signal power in dBm (valid when ``Flags/isSignalPowerValid``).
    public var signalPower: Int8
    /// Noise power in dBm (valid when ``Flags/isNoisePowerValid``).
    public var noisePower: Int8
    /// How many bits of the received access address differed from the one the sniffer looked for.
    public var accessAddressOffenses: UInt8
    /// The access address the capture tool was configured to look for.
    public var referenceAccessAddress: UInt32
    /// The Flags field: validity bits, PDU type, CRC/MIC check results, PHY.
    public var flags: Flags

    /// A pseudo-header; set the validity bits in `flags` for the fields that carry values.
    public init(rfChannel: UInt8, signalPower: Int8 = 0, noisePower: Int8 = 0, accessAddressOffenses: UInt8 = 0,
                referenceAccessAddress: UInt32 = 0, flags: Flags) {
        self.rfChannel = rfChannel
        self.signalPower = signalPower
        self.noisePower = noisePower
        self.accessAddressOffenses = accessAddressOffenses
        self.referenceAccessAddress = referenceAccessAddress
        self.flags = flags
    }

    /// Reads the 10 octets.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        rfChannel = try r.readUInt8("RF Channel")
        signalPower = Int8(bitPattern: try r.readUInt8("Signal Power"))
        noisePower = Int8(bitPattern: try r.readUInt8("Noise Power"))
        accessAddressOffenses = try r.readUInt8("Access Address Offenses")
        referenceAccessAddress = try r.readUInt32("Reference Access Address")
        flags = Flags(rawValue: try r.readUInt16("Flags"))
    }

    /// Appends the 10 octets.
    public func write(to w: inout ByteWriter) {
        w.writeUInt8(rfChannel)
        w.writeUInt8(UInt8(bitPattern: signalPower))
        w.writeUInt8(UInt8(bitPattern: noisePower))
        w.writeUInt8(accessAddressOffenses)
        w.writeUInt32(referenceAccessAddress)
        w.writeUInt16(flags.rawValue)
    }

    /// The centre frequency in MHz, 2402 + 2 x ``rfChannel``.
    public var frequencyMHz: Int { 2402 + 2 * Int(rfChannel) }

    /// The link layer's channel index for ``rfChannel`` (Core v5.4, Vol 6, Part B, 1.4.1):
    /// RF channels 0, 12 and 39 are advertising channels 37, 38 and 39; the others are data
    /// channels 0...36 in frequency order. Nil for an RF channel above 39.
    public var channelIndex: UInt8? {
        switch rfChannel {
        case 0: return 37
        case 1...11: return rfChannel - 1
        case 12: return 38
        case 13...38: return rfChannel - 2
        case 39: return 39
        default: return nil
        }
    }

    public var description: String {
        var parts = ["RF channel \(rfChannel) (\(frequencyMHz) MHz)"]
        if flags.isSignalPowerValid { parts.append("signal \(signalPower) dBm") }
        if flags.isNoisePowerValid { parts.append("noise \(noisePower) dBm") }
        parts.append("flags \(flags)")
        return parts.joined(separator: ", ")
    }
}
