import Testing
@testable import SMP

@Suite("SMP field values: names, bits, unknown values kept raw")
struct SMPFieldValueTests {
    @Test("IO capabilities (Table 3.4)")
    func ioCapabilities() {
        #expect((0...4).map { SMPIOCapability(rawValue: $0).description }
                == ["DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay"])
        #expect(SMPIOCapability(rawValue: 5).description == "IO capability 0x05 (reserved)")
        #expect(SMPOOBDataFlag.present.description == "OOB data present")
        #expect(SMPOOBDataFlag(rawValue: 2).description == "OOB data flag 0x02 (reserved)")
    }

    @Test("AuthReq bits: Bonding_Flags, MITM, SC, keypress, CT2, reserved")
    func authReq() {
        let all = SMPAuthenticationRequirements(rawValue: 0xFF)
        #expect(all.bondingFlags == 0b11)
        #expect(!all.bonding)
        #expect(all.mitm && all.secureConnections && all.keypress && all.ct2)
        #expect(all.reservedBits == 0xC0)
        #expect(all.description == "bonding flags 0b11 (reserved) MITM SC keypress CT2 reserved bits 0xc0")
        #expect(SMPAuthenticationRequirements(rawValue: 0x00).description == "no bonding")
        #expect(SMPAuthenticationRequirements(rawValue: 0x12).description == "bonding flags 0b10 (reserved) keypress")
        #expect(SMPAuthenticationRequirements(bondingFlags: 1, mitm: true, secureConnections: true, keypress: true, ct2: true).rawValue == 0x3D)
        #expect(SMPAuthenticationRequirements(bondingFlags: 0xFF).rawValue == 0x03)
    }

    @Test("key distribution bits: EncKey, IdKey, SignKey, LinkKey, reserved")
    func keyDistribution() {
        #expect(SMPKeyDistribution(rawValue: 0x0F).description == "EncKey IdKey SignKey LinkKey")
        #expect(SMPKeyDistribution(rawValue: 0x00).description == "none")
        #expect(SMPKeyDistribution(rawValue: 0x14).description == "SignKey reserved bits 0x10")
        #expect(SMPKeyDistribution(rawValue: 0xF2).reservedBits == 0xF0)
        #expect(SMPKeyDistribution([.idKey, .linkKey]).rawValue == 0x0A)
    }

    @Test("Pairing Failed reasons (Table 3.7)")
    func failedReasons() {
        let names = (1...15).map { SMPPairingFailedReason(rawValue: UInt8($0)).name }
        #expect(names == ["Passkey Entry Failed", "OOB Not Available", "Authentication Requirements", "Confirm Value Failed",
                          "Pairing Not Supported", "Encryption Key Size", "Command Not Supported", "Unspecified Reason",
                          "Repeated Attempts", "Invalid Parameters", "DHKey Check Failed", "Numeric Comparison Failed",
                          "BR/EDR pairing in progress", "Cross-transport Key Derivation/Generation not allowed", "Key Rejected"])
        #expect(SMPPairingFailedReason(rawValue: 0).name == nil)
        #expect(SMPPairingFailedReason.dhKeyCheckFailed.description == "DHKey Check Failed (0x0b)")
    }

    @Test("keypress notification types, identity address types, codes")
    func otherCodes() {
        #expect((0...4).map { SMPKeypressNotificationType(rawValue: $0).description }
                == ["passkey entry started", "passkey digit entered", "passkey digit erased", "passkey cleared", "passkey entry completed"])
        #expect(SMPKeypressNotificationType(rawValue: 9).description == "notification type 0x09 (reserved)")
        #expect(SMPIdentityAddressType(rawValue: 2).description == "address type 0x02 (reserved)")
        #expect((1...14).allSatisfy { SMPCode(rawValue: UInt8($0)).name != nil })
        #expect(SMPCode.pairingDHKeyCheck.description == "Pairing DHKey Check (0x0d)")
        #expect(SMPCode(rawValue: 0x0F).description == "SMP code 0x0f")
    }
}
