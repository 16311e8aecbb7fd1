/// What the sniffer that captured an LE link-layer packet said about it, read from whichever
/// capture header the record had: the LINKTYPE 256 pseudo-header (``LELLPseudoHeader``) or
/// the nRF Sniffer header of LINKTYPE 272 (``NordicBLEHeader``). A record with neither (plain
/// LINKTYPE 251, PPI) has ``none``: every check unknown, the direction unknown.
///
/// The dissector trusts these over its own guesses: a CRC the sniffer checked is not checked
/// again, a direction it gives is not inferred, and a packet it flags as encrypted with a bad
/// MIC is never decoded as L2CAP.
public struct SnifferVerdict: Hashable, Sendable {
    /// Whether the CRC matched; nil when the sniffer did not check it.
    public var isCRCValid: Bool?
    /// Whether the packet was encrypted on air; nil when the header does not say.
    public var isEncrypted: Bool?
    /// Whether the MIC of an encrypted packet matched after the sniffer decrypted it (Core v5.4,
    /// Vol 6, Part E, 1); nil when the sniffer did not check one.
    public var isMICValid: Bool?
    /// Whether the payload the capture holds is the sniffer's decryption (plaintext).
    public var isDecrypted: Bool
    /// Central to peripheral or back, for data physical channel PDUs whose header says;
    /// ``CaptureDirection/unknown`` otherwise.
    public var direction: CaptureDirection
    /// The received signal strength in dBm, when the header carries it.
    public var rssi: Int?
    /// The link layer's channel index (0...39), when the header carries it (Core v5.4, Vol 6,
    /// Part B, 1.4.1).
    public var channelIndex: UInt8?
    /// The PHY (0 LE 1M, 1 LE 2M, 2 LE Coded), when the header carries it.
    public var phy: UInt8?

    /// A verdict; see the properties.
    public init(isCRCValid: Bool? = nil, isEncrypted: Bool? = nil, isMICValid: Bool? = nil, isDecrypted: Bool = false,
                direction: CaptureDirection = .unknown, rssi: Int? = nil, channelIndex: UInt8? = nil, phy: UInt8? = nil) {
        self.isCRCValid = isCRCValid
        self.isEncrypted = isEncrypted
        self.isMICValid = isMICValid
        self.isDecrypted = isDecrypted
        self.direction = direction
        self.rssi = rssi
        self.channelIndex = channelIndex
        self.phy = phy
    }

    /// A sniffer that said nothing.
    public static let none = SnifferVerdict()

    /// What a LINKTYPE 256 pseudo-header says: the CRC and MIC results its check bits
    /// validate, "decrypted", the direction of its PDU type, the signal power when valid, the
    /// RF channel as a channel index, and the PHY.
    public init(_ header: LELLPseudoHeader) {
        let flags = header.flags
        let direction: CaptureDirection
        switch flags.pduType {
        case .dataCentralToPeripheral: direction = .centralToPeripheral
        case .dataPeripheralToCentral: direction = .peripheralToCentral
        default: direction = .unknown
        }
        self.init(isCRCValid: flags.isCRCChecked ? flags.isCRCValid : nil,
                  isMICValid: flags.isMICChecked ? flags.isMICValid : nil,
                  isDecrypted: flags.isDecrypted, direction: direction,
                  rssi: flags.isSignalPowerValid ? Int(header.signalPower) : nil,
                  channelIndex: header.channelIndex, phy: flags.phy)
    }

    /// What an nRF Sniffer header says about a packet of the given kind: the CRC result
    /// always; for data PDUs the direction and the encryption bit, with the MIC result when it
    /// is set (the payload is then the sniffer's decryption if the MIC matched); the RSSI,
    /// channel index and PHY.
    public init(_ header: NordicBLEHeader, isDataPDU: Bool) {
        let flags = header.flags
        var verdict = SnifferVerdict(isCRCValid: flags.isCRCValid, rssi: header.rssi,
                                     channelIndex: header.channelIndex, phy: flags.phy)
        if isDataPDU {
            verdict.direction = flags.isCentralToPeripheral ? .centralToPeripheral : .peripheralToCentral
            verdict.isEncrypted = flags.isEncrypted
            if flags.isEncrypted {
                verdict.isMICValid = flags.isMICValid
                verdict.isDecrypted = flags.isMICValid
            }
        }
        self = verdict
    }
}
