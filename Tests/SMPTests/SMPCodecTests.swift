import Testing
import BLECore
@testable import SMP

/// A fixture and the field table of its command (offsets from the Code octet), from Part H.
struct SMPLayoutFixture: CustomTestStringConvertible, Sendable {
    let hex: String
    let fields: [FieldSpec]
    var testDescription: String { String(hex.prefix(2)) }
}

let smpLayouts: [SMPLayoutFixture] = [
    .init(hex: SMPFixtures.pairingRequest, fields: pairingFeatureFields),
    .init(hex: SMPFixtures.pairingResponse, fields: pairingFeatureFields),
    .init(hex: SMPFixtures.pairingConfirm, fields: [FieldSpec("Code", 0, 1), FieldSpec("Confirm Value", 1, 16)]),
    .init(hex: SMPFixtures.pairingRandom, fields: [FieldSpec("Code", 0, 1), FieldSpec("Random Value", 1, 16)]),
    .init(hex: SMPFixtures.pairingFailed, fields: [FieldSpec("Code", 0, 1), FieldSpec("Reason", 1, 1)]),
    .init(hex: SMPFixtures.encryptionInformation, fields: [FieldSpec("Code", 0, 1), FieldSpec("Long Term Key", 1, 16)]),
    .init(hex: SMPFixtures.centralIdentification, fields: [FieldSpec("Code", 0, 1), FieldSpec("EDIV", 1, 2), FieldSpec("Rand", 3, 8)]),
    .init(hex: SMPFixtures.identityInformation, fields: [FieldSpec("Code", 0, 1), FieldSpec("Identity Resolving Key", 1, 16)]),
    .init(hex: SMPFixtures.identityAddressInformation, fields: [FieldSpec("Code", 0, 1), FieldSpec("AddrType", 1, 1), FieldSpec("BD_ADDR", 2, 6)]),
    .init(hex: SMPFixtures.signingInformation, fields: [FieldSpec("Code", 0, 1), FieldSpec("Signature Key", 1, 16)]),
    .init(hex: SMPFixtures.securityRequest, fields: [FieldSpec("Code", 0, 1), FieldSpec("AuthReq", 1, 1)]),
    .init(hex: SMPFixtures.pairingPublicKey, fields: [FieldSpec("Code", 0, 1), FieldSpec("Public Key X", 1, 32), FieldSpec("Public Key Y", 33, 32)]),
    .init(hex: SMPFixtures.dhKeyCheck, fields: [FieldSpec("Code", 0, 1), FieldSpec("DHKey Check", 1, 16)]),
    .init(hex: SMPFixtures.keypressNotification, fields: [FieldSpec("Code", 0, 1), FieldSpec("Notification Type", 1, 1)]),
]

let pairingFeatureFields = [
    FieldSpec("Code", 0, 1), FieldSpec("IO Capability", 1, 1), FieldSpec("OOB data flag", 2, 1),
    FieldSpec("AuthReq", 3, 1), FieldSpec("Maximum Encryption Key Size", 4, 1),
    FieldSpec("Initiator Key Distribution", 5, 1), FieldSpec("Responder Key Distribution", 6, 1),
]

@Suite("SMP codec: round trips and malformed input")
struct SMPCodecTests {
    @Test("every code 0x01...0x0E has a fixture")
    func coverage() throws {
        let codes = try smpLayouts.map { try SMPPDU(decoding: octets($0.hex)).code.rawValue }
        #expect(Set(codes) == Set(1...14))
    }

    @Test("round trip: decode then encode gives the fixture; encode then decode gives the value", arguments: smpLayouts)
    func roundTrip(_ fixture: SMPLayoutFixture) throws {
        let bytes = octets(fixture.hex)
        let pdu = try SMPPDU(decoding: bytes)
        #expect(pdu.encoded == bytes)
        #expect(try SMPPDU(decoding: pdu.encoded) == pdu)
        #expect(pdu.encoded.count == fixture.fields.map { $0.offset + $0.size }.max())
    }

    @Test("truncated at every length: the exact field and offset, wrapped with the command", arguments: smpLayouts)
    func truncated(_ fixture: SMPLayoutFixture) throws {
        let bytes = octets(fixture.hex)
        let code = SMPCode(rawValue: bytes[0])
        #expect(throws: SMPDecodingError(code: nil, underlying: .truncated(field: "Code", offset: 0, needed: 1, available: 0))) {
            _ = try SMPPDU(decoding: bytes[..<0])
        }
        for length in 1..<bytes.count {
            let expected = SMPDecodingError(code: code, underlying: expectedTruncation(at: length, of: fixture.fields))
            #expect(throws: expected) { _ = try SMPPDU(decoding: bytes[..<length]) }
        }
    }

    @Test("a trailing octet after the last field is rejected at its offset", arguments: smpLayouts)
    func trailing(_ fixture: SMPLayoutFixture) {
        let bytes = octets(fixture.hex)
        #expect(throws: SMPDecodingError(code: SMPCode(rawValue: bytes[0]),
                                         underlying: .unexpectedTrailingOctets(offset: bytes.count, count: 1))) {
            _ = try SMPPDU(decoding: bytes + [0x00])
        }
    }

    @Test("errors read 'Command (0xNN): field at offset ...'")
    func errorText() {
        do {
            _ = try SMPPDU(decoding: octets("01 04 00 2d"))
            Issue.record("a 4-octet Pairing Request decoded")
        } catch {
            #expect(error.description == "Pairing Request (0x01): Maximum Encryption Key Size at offset 4 needs 1 octet, 0 available")
        }
        #expect(SMPDecodingError(code: nil, underlying: .truncated(field: "Code", offset: 0, needed: 1, available: 0)).description
                == "SMP: Code at offset 0 needs 1 octet, 0 available")
    }

    @Test("offsets count from the slice the decoder was given")
    func sliceOffsets() throws {
        let frame = octets("07 00 06 00") + octets(SMPFixtures.pairingRequest)
        #expect(try SMPPDU(decoding: frame[4...]).code == .pairingRequest)
        #expect(throws: SMPDecodingError(code: .pairingRequest, underlying: .truncated(field: "AuthReq", offset: 3, needed: 1, available: 0))) {
            _ = try SMPPDU(decoding: frame[4..<7])
        }
    }

    @Test("values built in code encode to the spec's layout")
    func encodeBuilt() throws {
        let features = SMPPairingFeatures(ioCapability: .noInputNoOutput,
                                          authReq: SMPAuthenticationRequirements(bondingFlags: 1, secureConnections: true),
                                          initiatorKeyDistribution: [.encKey, .idKey], responderKeyDistribution: [.encKey, .idKey])
        #expect(SMPPDU.pairingRequest(features).encoded == octets("01 03 00 09 10 03 03"))
        let x = try #require(SMPPublicKeyCoordinate(octets: [UInt8](repeating: 0x11, count: 32)))
        let key = SMPPDU.pairingPublicKey(SMPPairingPublicKey(x: x, y: .zero))
        #expect(key.encoded == [0x0C] + [UInt8](repeating: 0x11, count: 32) + [UInt8](repeating: 0, count: 32))
        #expect(SMPPDU.centralIdentification(.init(ediv: 0xBEEF, rand: 1)).encoded == octets("07 ef be 01 00 00 00 00 00 00 00"))
        let address = try #require(BluetoothAddress("C0:11:22:33:44:55"))
        #expect(SMPPDU.identityAddressInformation(.init(addressType: .staticRandom, address: address)).encoded
                == octets("09 01 55 44 33 22 11 c0"))
    }

    @Test("fixed-size values refuse any other length")
    func fixedSizes() {
        #expect(SMPValue128(octets: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(SMPValue128(octets: [UInt8](repeating: 0, count: 17)) == nil)
        #expect(SMPValue128(octets: [UInt8](repeating: 0, count: 16)) == .zero)
        #expect(SMPPublicKeyCoordinate(octets: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(SMPPublicKeyCoordinate(octets: [UInt8](repeating: 0, count: 32)) == .zero)
    }
}
