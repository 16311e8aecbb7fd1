import BLECore

/// The fields of Pairing Request (code 0x01) and Pairing Response (code 0x02): what each side
/// can do and wants (Core v5.4, Vol 3, Part H, 3.5.1 and 3.5.2).
///
/// Layout after the Code, 6 octets: IO Capability (1), OOB data flag (1), AuthReq (1), Maximum
/// Encryption Key Size (1, octets, 7...16), Initiator Key Distribution (1), Responder Key
/// Distribution (1). Values are kept as received; range checks belong to the pairing engine,
/// which answers out-of-range values with Pairing Failed, Invalid Parameters.
public struct SMPPairingFeatures: Hashable, Sendable {
    /// The device's input and output capabilities.
    public var ioCapability: SMPIOCapability
    /// Whether OOB authentication data from the remote device is present.
    public var oobDataFlag: SMPOOBDataFlag
    /// Bonding, MITM, Secure Connections, keypress and CT2 requests.
    public var authReq: SMPAuthenticationRequirements
    /// The largest encryption key size the device supports, in octets (7...16).
    public var maximumEncryptionKeySize: UInt8
    /// The keys the initiator (Central) will distribute.
    public var initiatorKeyDistribution: SMPKeyDistribution
    /// The keys the responder (Peripheral) will distribute.
    public var responderKeyDistribution: SMPKeyDistribution

    /// Pairing features; the maximum encryption key size is in octets (7...16, default 16).
    public init(ioCapability: SMPIOCapability, oobDataFlag: SMPOOBDataFlag = .notPresent,
                authReq: SMPAuthenticationRequirements, maximumEncryptionKeySize: UInt8 = 16,
                initiatorKeyDistribution: SMPKeyDistribution, responderKeyDistribution: SMPKeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authReq = authReq
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    /// "IO capability KeyboardDisplay, OOB data not present, AuthReq bonding MITM SC CT2,
    /// max key size 16 octets, initiator keys EncKey IdKey, responder keys EncKey IdKey".
    public var description: String {
        "IO capability \(ioCapability), \(oobDataFlag), AuthReq \(authReq), "
            + "max key size \(maximumEncryptionKeySize) octets, "
            + "initiator keys \(initiatorKeyDistribution), responder keys \(responderKeyDistribution)"
    }
}

extension SMPPairingFeatures: SMPCommandLayout {
    init() {
        self.init(ioCapability: .displayOnly, oobDataFlag: .notPresent, authReq: SMPAuthenticationRequirements(rawValue: 0),
                  maximumEncryptionKeySize: 0, initiatorKeyDistribution: [], responderKeyDistribution: [])
    }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&ioCapability, "IO Capability")
        try c.field(&oobDataFlag, "OOB data flag")
        try c.field(&authReq, "AuthReq")
        try c.field(&maximumEncryptionKeySize, "Maximum Encryption Key Size")
        try c.field(&initiatorKeyDistribution, "Initiator Key Distribution")
        try c.field(&responderKeyDistribution, "Responder Key Distribution")
    }
}
