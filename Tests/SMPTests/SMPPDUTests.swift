import Testing
import BLECore
@testable import SMP

/// Real SMP PDUs (B-frame payloads on CID 0x0006) from the shared captures, and the few
/// commands no capture holds, built from the spec's tables and checked against tshark.
enum SMPFixtures {
    // nexxtender ...insufficient_auth_pairing.btsnoop, LE Secure Connections, Passkey Entry.
    static let pairingRequest = "01 04 00 2d 10 0f 0f"                           // frame 759, phone -> charger
    static let pairingResponse = "02 00 00 0d 10 07 07"                          // frame 761, charger -> phone
    static let pairingConfirm = "03 cf b2 b9 fa 57 70 d6 4e 6d ef 37 2a 98 0e 5b cd"   // frame 802
    static let pairingRandom = "04 3f 55 a5 c9 28 80 8f 0e ce 5f 3e fd 79 e0 08 0e"    // frame 804
    static let pairingPublicKey = """
        0c
        56 71 1e 0a f4 66 e3 3d 46 3a 46 b8 b2 97 4b b3 8f e2 55 8e 52 88 40 40 ac fb 79 41 c0 e5 e4 bd
        78 76 41 47 95 50 d2 2b b2 a6 bb c0 ce 5e 29 ad 29 dd c8 8e 92 b6 3c 54 88 6a 0d 30 64 b7 10 b5
        """                                                                      // frame 771, phone -> charger
    static let dhKeyCheck = "0d 91 68 8f 7c 86 80 88 f1 1b 36 73 d6 ff d7 01 d5"       // frame 1002
    static let identityInformation = "08 be ca 68 7e 96 63 f5 69 02 c8 6b 89 0d ba 22 78" // frame 1010
    static let identityAddressInformation = "09 01 f8 4f 72 37 b8 ff"           // frame 1013
    static let signingInformation = "0a 6e 47 ae 81 7f 7f 21 32 c1 42 46 5f 61 b8 d6 06" // frame 1014
    // Built from Part H 3.5.5, 3.6.2, 3.6.3, 3.6.7, 3.5.8 (tshark decodes them the same way).
    static let pairingFailed = "05 04"
    static let encryptionInformation = "06 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff"
    static let centralIdentification = "07 34 12 ef cd ab 89 67 45 23 01"
    static let securityRequest = "0b 2d"
    static let keypressNotification = "0e 01"
}

@Suite("SMP commands: annotated fixtures")
struct SMPPDUTests {
    func decode(_ hex: String) throws -> SMPPDU { try SMPPDU(decoding: octets(hex)) }

    @Test("Pairing Request: real, LE Secure Connections with MITM and CT2")
    func pairingRequest() throws {
        // 01  Code: Pairing Request
        // 04  IO Capability: KeyboardDisplay
        // 00  OOB data flag: not present
        // 2d  AuthReq 0b0010_1101: Bonding (0b01), MITM, SC, CT2 (tshark calls bit 5 "Reserved")
        // 10  Maximum Encryption Key Size: 16 octets
        // 0f  Initiator Key Distribution: EncKey IdKey SignKey LinkKey
        // 0f  Responder Key Distribution: EncKey IdKey SignKey LinkKey
        let pdu = try decode(SMPFixtures.pairingRequest)
        guard case .pairingRequest(let f) = pdu else { Issue.record("\(pdu)"); return }
        #expect(f.ioCapability == .keyboardDisplay)
        #expect(f.oobDataFlag == .notPresent)
        #expect(f.authReq.bonding)
        #expect(f.authReq.mitm)
        #expect(f.authReq.secureConnections)
        #expect(!f.authReq.keypress)
        #expect(f.authReq.ct2)
        #expect(f.authReq.reservedBits == 0)
        #expect(f.maximumEncryptionKeySize == 16)
        #expect(f.initiatorKeyDistribution == [.encKey, .idKey, .signKey, .linkKey])
        #expect(f.responderKeyDistribution == [.encKey, .idKey, .signKey, .linkKey])
        #expect(pdu.code == .pairingRequest)
        #expect(pdu.description == "Pairing Request IO capability KeyboardDisplay, OOB data not present, AuthReq bonding MITM SC CT2, max key size 16 octets, initiator keys EncKey IdKey SignKey LinkKey, responder keys EncKey IdKey SignKey LinkKey")
    }

    @Test("Pairing Response: real; and legacy pairing from the crackle capture")
    func pairingResponse() throws {
        // 02 Pairing Response | 00 DisplayOnly | 00 OOB not present | 0d bonding MITM SC |
        // 10 16 octets | 07 EncKey IdKey SignKey | 07 EncKey IdKey SignKey
        let pdu = try decode(SMPFixtures.pairingResponse)
        guard case .pairingResponse(let f) = pdu else { Issue.record("\(pdu)"); return }
        #expect(f.ioCapability == .displayOnly)
        #expect(f.oobDataFlag == .notPresent)
        #expect(f.authReq == SMPAuthenticationRequirements(bondingFlags: 0b01, mitm: true, secureConnections: true))
        #expect(f.maximumEncryptionKeySize == 16)
        #expect(f.initiatorKeyDistribution == [.encKey, .idKey, .signKey])
        #expect(f.responderKeyDistribution == [.encKey, .idKey, .signKey])

        // crackle_legacy_pairing_ltk_exchange_ppi_ll.pcap frame 566 (LE legacy, Just Works):
        // 01 Pairing Request | 03 NoInputNoOutput | 00 | 05 bonding MITM | 10 16 | 00 none | 01 EncKey
        let legacy = try decode("01 03 00 05 10 00 01")
        guard case .pairingRequest(let l) = legacy else { Issue.record("\(legacy)"); return }
        #expect(l.ioCapability == .noInputNoOutput)
        #expect(!l.authReq.secureConnections)
        #expect(l.initiatorKeyDistribution.isEmpty)
        #expect(l.responderKeyDistribution == .encKey)
        #expect(legacy.description == "Pairing Request IO capability NoInputNoOutput, OOB data not present, AuthReq bonding MITM, max key size 16 octets, initiator keys none, responder keys EncKey")
    }

    @Test("Pairing Confirm, Pairing Random, Pairing DHKey Check: real 128-bit values")
    func pairingValues() throws {
        // 03 Pairing Confirm | Confirm Value cfb2b9fa...5bcd (16 octets, transmission order)
        let confirmBytes = octets(SMPFixtures.pairingConfirm)
        let confirm = try SMPPDU(decoding: confirmBytes)
        guard case .pairingConfirm(let c) = confirm else { Issue.record("\(confirm)"); return }
        #expect(c.octets == Array(confirmBytes.dropFirst()))
        #expect(c.octets.first == 0xCF)
        #expect(c.octets.last == 0xCD)
        #expect(confirm.description == "Pairing Confirm cfb2b9fa5770d64e6def372a980e5bcd")
        #expect(c.mostSignificantFirstHex == "cd5b0e982a37ef6d4ed67057fab9b2cf")

        // 04 Pairing Random | Random Value 3f55a5c9...080e
        let random = try decode(SMPFixtures.pairingRandom)
        guard case .pairingRandom(let r) = random else { Issue.record("\(random)"); return }
        #expect(r.octets == Array(octets(SMPFixtures.pairingRandom).dropFirst()))
        #expect(random.description == "Pairing Random 3f55a5c928808f0ece5f3efd79e0080e")

        // 0d Pairing DHKey Check | DHKey Check 91688f7c...01d5
        let check = try decode(SMPFixtures.dhKeyCheck)
        guard case .pairingDHKeyCheck(let e) = check else { Issue.record("\(check)"); return }
        #expect(e.octets == Array(octets(SMPFixtures.dhKeyCheck).dropFirst()))
        #expect(check.description == "Pairing DHKey Check 91688f7c868088f11b3673d6ffd701d5")
    }

    @Test("Pairing Public Key: real 64-octet key, X then Y")
    func pairingPublicKey() throws {
        // 0c Pairing Public Key | Public Key X 56711e0a...e4bd (32) | Public Key Y 78764147...10b5 (32)
        let bytes = octets(SMPFixtures.pairingPublicKey)
        #expect(bytes.count == 65)
        let pdu = try SMPPDU(decoding: bytes)
        guard case .pairingPublicKey(let key) = pdu else { Issue.record("\(pdu)"); return }
        #expect(key.x.octets == Array(bytes[1..<33]))
        #expect(key.y.octets == Array(bytes[33..<65]))
        #expect(key.x.description.hasPrefix("56711e0a"))
        #expect(key.y.description.hasSuffix("64b710b5"))
        #expect(pdu.description == "Pairing Public Key X \(Hex.encode(bytes[1..<33])), Y \(Hex.encode(bytes[33..<65]))")
    }

    @Test("Pairing Failed: reason names, unknown reasons kept raw")
    func pairingFailed() throws {
        // 05 Pairing Failed | 04 Reason: Confirm Value Failed
        let pdu = try decode(SMPFixtures.pairingFailed)
        #expect(pdu == .pairingFailed(reason: .confirmValueFailed))
        #expect(pdu.description == "Pairing Failed Confirm Value Failed (0x04)")
        #expect(try decode("05 0f") == .pairingFailed(reason: .keyRejected))
        let odd = try decode("05 42")
        #expect(odd == .pairingFailed(reason: SMPPairingFailedReason(rawValue: 0x42)))
        #expect(odd.description == "Pairing Failed reason 0x42 (reserved)")
    }

    @Test("Encryption Information and Central Identification (LE legacy key distribution)")
    func legacyKeys() throws {
        // 06 Encryption Information | Long Term Key 00112233...eeff (transmission order)
        let ltk = try decode(SMPFixtures.encryptionInformation)
        guard case .encryptionInformation(let key) = ltk else { Issue.record("\(ltk)"); return }
        #expect(key.octets == (0..<16).map { UInt8($0 * 0x11) })
        #expect(ltk.description == "Encryption Information LTK 00112233445566778899aabbccddeeff")

        // 07 Central Identification | 34 12 EDIV 0x1234 | ef cd ab 89 67 45 23 01 Rand 0x0123456789abcdef
        let ident = try decode(SMPFixtures.centralIdentification)
        guard case .centralIdentification(let id) = ident else { Issue.record("\(ident)"); return }
        #expect(id.ediv == 0x1234)
        #expect(id.rand == 0x0123_4567_89AB_CDEF)
        #expect(ident.description == "Central Identification EDIV 0x1234 Rand 0x0123456789abcdef")
    }

    @Test("Identity Information, Identity Address Information, Signing Information: real")
    func identityAndSigning() throws {
        // 08 Identity Information | Identity Resolving Key beca687e...2278
        let irk = try decode(SMPFixtures.identityInformation)
        guard case .identityInformation(let key) = irk else { Issue.record("\(irk)"); return }
        #expect(key.octets == Array(octets(SMPFixtures.identityInformation).dropFirst()))
        #expect(irk.description == "Identity Information IRK beca687e9663f56902c86b890dba2278")

        // 09 Identity Address Information | 01 AddrType: static random | f8 4f 72 37 b8 ff BD_ADDR FF:B8:37:72:4F:F8
        let charger = try decode(SMPFixtures.identityAddressInformation)
        guard case .identityAddressInformation(let a) = charger else { Issue.record("\(charger)"); return }
        #expect(a.addressType == .staticRandom)
        #expect(a.address == BluetoothAddress("FF:B8:37:72:4F:F8"))
        #expect(a.address.randomAddressKind == .randomStatic)
        #expect(charger.description == "Identity Address Information random static FF:B8:37:72:4F:F8")
        // frame 1017, the phone: 09 | 00 public | d7 66 dc 5b e5 dc DC:E5:5B:DC:66:D7
        let phone = try decode("09 00 d7 66 dc 5b e5 dc")
        let phoneAddress = try #require(BluetoothAddress("DC:E5:5B:DC:66:D7"))
        #expect(phone == .identityAddressInformation(.init(addressType: .public, address: phoneAddress)))

        // 0a Signing Information | Signature Key 6e47ae81...d606
        let csrk = try decode(SMPFixtures.signingInformation)
        guard case .signingInformation(let s) = csrk else { Issue.record("\(csrk)"); return }
        #expect(s.octets == Array(octets(SMPFixtures.signingInformation).dropFirst()))
        #expect(csrk.description == "Signing Information CSRK 6e47ae817f7f2132c142465f61b8d606")
    }

    @Test("Security Request and Pairing Keypress Notification")
    func securityRequestAndKeypress() throws {
        // 0b Security Request | 2d AuthReq bonding MITM SC CT2
        let request = try decode(SMPFixtures.securityRequest)
        #expect(request == .securityRequest(authReq: SMPAuthenticationRequirements(bondingFlags: 1, mitm: true, secureConnections: true, ct2: true)))
        #expect(request.description == "Security Request AuthReq bonding MITM SC CT2")

        // 0e Pairing Keypress Notification | 01 passkey digit entered
        let keypress = try decode(SMPFixtures.keypressNotification)
        #expect(keypress == .keypressNotification(.passkeyDigitEntered))
        #expect(keypress.code == .pairingKeypressNotification)
        #expect(keypress.description == "Pairing Keypress Notification passkey digit entered")
    }

    @Test("reserved codes are kept raw with their data")
    func unknownCodes() throws {
        let pdu = try decode("0f 01 02 03")
        #expect(pdu == .unknown(code: SMPCode(rawValue: 0x0F), data: [1, 2, 3]))
        #expect(pdu.description == "SMP code 0x0f, data 010203")
        #expect(pdu.encoded == octets("0f 01 02 03"))
        #expect(try decode("00") == .unknown(code: SMPCode(rawValue: 0x00), data: []))
        #expect(try decode("00").description == "SMP code 0x00, no data")
    }
}
