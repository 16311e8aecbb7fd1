import BLECore
import HCI
import Testing

@Suite("Command packets, opcodes and HCICommandValue")
struct HCICommandValueTests {
    @Test("HCIOpcode: OGF and OCF")
    func opcode() {
        #expect(HCIOpcode(ogf: 0x08, ocf: 0x000C) == .leSetScanEnable)
        #expect(HCIOpcode.leSetScanEnable.rawValue == 0x200C)
        #expect(HCIOpcode.leSetScanEnable.ogf == 0x08)
        #expect(HCIOpcode.leSetScanEnable.ocf == 0x000C)
        #expect(HCIOpcode.reset.ogf == 0x03)
        #expect(HCIOpcode.reset.ocf == 0x0003)
        #expect(HCIOpcode(ogf: 0xFF, ocf: 0xFFFF).rawValue == 0xFFFF)   // extra bits discarded
        #expect(HCIOpcode(rawValue: 0xFC17).isVendorSpecific)
        #expect(!HCIOpcode.reset.isVendorSpecific)
    }

    @Test("HCIOpcode names, and text for opcodes without one")
    func opcodeNames() {
        #expect(HCIOpcode.leSetScanEnable.name == "LE Set Scan Enable")
        #expect(HCIOpcode.readBDADDR.name == "Read BD_ADDR")
        #expect(HCIOpcode.leReadBufferSizeV2.name == "LE Read Buffer Size [v2]")
        #expect(HCIOpcode.leEnableEncryption.description == "LE Enable Encryption")
        #expect(HCIOpcode(rawValue: 0xFD57).description == "Vendor Command 0xFD57")
        #expect(HCIOpcode(rawValue: 0x0C84).description == "Opcode 0x0C84")
        #expect(HCIOpcode(rawValue: 0x0C84).name == nil)
    }

    @Test("every implemented command type answers to its own opcode")
    func registry() throws {
        let opcodes: [HCIOpcode] = [
            .reset, .setEventMask, .readLocalVersionInformation, .readLocalSupportedCommands,
            .readLocalSupportedFeatures, .readBDADDR, .leSetEventMask, .leReadBufferSize, .leReadBufferSizeV2,
            .leReadLocalSupportedFeatures, .leSetRandomAddress, .leSetScanParameters, .leSetScanEnable,
            .leSetExtendedScanParameters, .leSetExtendedScanEnable, .leSetAdvertisingParameters,
            .leSetAdvertisingData, .leSetScanResponseData, .leSetAdvertisingEnable,
            .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedScanResponseData,
            .leSetExtendedAdvertisingEnable, .leReadMaximumAdvertisingDataLength, .leCreateConnection,
            .leExtendedCreateConnection, .leCreateConnectionCancel, .disconnect, .leConnectionUpdate,
            .leSetDataLength, .leReadPHY, .leSetPHY, .leLongTermKeyRequestReply,
        ]
        for opcode in opcodes {
            let type = try #require(HCICommandValue.commandType(for: opcode), "\(opcode)")
            #expect(type.opcode == opcode)
            #expect(opcode.name != nil)
            #expect(HCISupportedCommands.position(of: opcode) != nil, "\(opcode) has no Supported_Commands bit")
            // The all-zero value of each command encodes and decodes through HCICommandValue.
            let value = try HCICommandValue(packet: HCICommandPacket(opcode: opcode, parameters: zeroParameters(type)))
            #expect(value.opcode == opcode)
            #expect(value.command != nil)
            #expect(value.packet.opcode == opcode)
        }
        #expect(HCICommandValue.commandType(for: .leRand) == nil)
    }

    private func zeroParameters(_ type: any HCICommand.Type) -> [UInt8] {
        func encode<C: HCICommand>(_: C.Type) -> [UInt8] { C().encoded }
        return encode(type)
    }

    @Test("unknown and vendor commands are kept whole")
    func unknown() throws {
        // nexxtender btsnoop: Broadcom LE Advertising Filter (vendor), kept as received.
        let vendor = hex("57 fd 03 01 00 00")
        let value = try HCICommandValue(decoding: vendor)
        #expect(value == .unknown(HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFD57), parameters: [0x01, 0x00, 0x00])))
        #expect(value.packet.encoded == vendor)
        #expect(value.command == nil)
        #expect(value.description == "Vendor Command 0xFD57 parameters=010000")
        // LE Rand has a name but no decoder here: also unknown.
        #expect(try HCICommandValue(decoding: hex("18 20 00")) == .unknown(HCICommandPacket(opcode: .leRand)))
    }

    @Test("HCI Command packet header: Parameter_Total_Length against the octets")
    func packetLength() throws {
        let packet = try HCICommandPacket(decoding: hex("0c 20 02 01 00"))
        #expect(packet.opcode == .leSetScanEnable)
        #expect(packet.parameters == [0x01, 0x00])
        #expect(packet.encoded == hex("0c 20 02 01 00"))
        #expect(throws: BLEDecodingError.truncated(field: "Opcode", offset: 0, needed: 2, available: 1)) {
            _ = try HCICommandPacket(decoding: hex("0c"))
        }
        #expect(throws: BLEDecodingError.truncated(field: "Parameter_Total_Length", offset: 2, needed: 1, available: 0)) {
            _ = try HCICommandPacket(decoding: hex("0c 20"))
        }
        // Parameter_Total_Length 3 but two octets follow.
        #expect(throws: BLEDecodingError.truncated(field: "Parameters", offset: 3, needed: 3, available: 2)) {
            _ = try HCICommandPacket(decoding: hex("0c 20 03 01 00"))
        }
        // Parameter_Total_Length 1 but two octets follow.
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 4, count: 1)) {
            _ = try HCICommandPacket(decoding: hex("0c 20 01 01 00"))
        }
    }

    @Test("parameter errors are reported at packet offsets")
    func parameterErrorsAtPacketOffsets() {
        // LE Set Scan Enable with one parameter octet: Filter_Duplicates at packet offset 4.
        #expect(throws: BLEDecodingError.truncated(field: "Filter_Duplicates", offset: 4, needed: 1, available: 0)) {
            _ = try HCICommandValue(decoding: hex("0c 20 01 01"))
        }
        // Reset with a parameter it does not have.
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 3, count: 1)) {
            _ = try HCICommandValue(decoding: hex("03 0c 01 00"))
        }
        // A command type decoding another command's packet.
        #expect(throws: BLEDecodingError.invalidValue(field: "Opcode", offset: 0, reason: "Reset is not LE Set Scan Enable")) {
            _ = try HCILESetScanEnable(packet: HCICommandPacket(opcode: .reset))
        }
    }
}
