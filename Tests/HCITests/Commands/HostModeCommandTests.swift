import BLECore
import HCI
import Testing

/// The commands host mode adds: the shared buffer size, RSSI, and the Filter Accept List.
/// Bytes built from Core v5.4, Vol 4, Part E, 7.4.5, 7.5.4 and 7.8.14-7.8.17.
@Suite("Host-mode commands")
struct HostModeCommandTests {
    @Test("HCI_Read_Buffer_Size returns the shared ACL buffers")
    func readBufferSize() throws {
        let command = hex("05 10 00")   // Opcode 0x1005, no parameters
        guard case .readBufferSize = try HCICommandValue(decoding: command) else { Issue.record("not Read Buffer Size"); return }
        let returned = hex("""
            00        # Status: Success
            fd 03     # ACL_Data_Packet_Length 1021
            40        # Synchronous_Data_Packet_Length 64
            08 00     # Total_Num_ACL_Data_Packets 8
            02 00     # Total_Num_Synchronous_Data_Packets 2
            """)
        let parameters = try HCIReadBufferSize.result(fromReturnParameters: returned[...]).get()
        #expect(parameters.aclDataPacketLength == 1021)
        #expect(parameters.synchronousDataPacketLength == 64)
        #expect(parameters.totalNumACLDataPackets == 8)
        #expect(parameters.totalNumSynchronousDataPackets == 2)
        try expectRoundTrip(HCIReadBufferSize.ReturnParameters.self, returned)
    }

    @Test("HCI_Read_RSSI carries a signed dBm value")
    func readRSSI() throws {
        let command = hex("""
            05 14 02  # Opcode 0x1405, 2 octets
            40 00     # Handle 0x0040
            """)
        guard case .readRSSI(let read) = try HCICommandValue(decoding: command) else { Issue.record("not Read RSSI"); return }
        #expect(read.handle == 0x0040)
        #expect(HCIReadRSSI(handle: 0x0040).packet.encoded == command)
        let returned = hex("""
            00        # Status: Success
            40 00     # Handle 0x0040
            c4        # RSSI -60 dBm
            """)
        let parameters = try HCIReadRSSI.result(fromReturnParameters: returned[...]).get()
        #expect(parameters.rssi == -60)
        #expect(parameters.description.contains("-60 dBm"))
        try expectRoundTrip(HCIReadRSSI.ReturnParameters.self, returned)
    }

    @Test("The Filter Accept List commands: size, clear, add and remove")
    func filterAcceptList() throws {
        guard case .leReadFilterAcceptListSize = try HCICommandValue(decoding: hex("0f 20 00")) else { Issue.record("not the size"); return }
        #expect(try HCILEReadFilterAcceptListSize.result(fromReturnParameters: hex("00 10")[...]).get().filterAcceptListSize == 16)
        guard case .leClearFilterAcceptList = try HCICommandValue(decoding: hex("10 20 00")) else { Issue.record("not clear"); return }

        let add = hex("""
            11 20 07            # Opcode 0x2011, 7 octets
            01                  # Address_Type: random
            c3 a2 11 22 33 f0   # Address F0:33:22:11:A2:C3
            """)
        guard case .leAddDeviceToFilterAcceptList(let added) = try HCICommandValue(decoding: add) else { Issue.record("not add"); return }
        #expect(added.addressType == .random)
        #expect(added.address == BluetoothAddress("F0:33:22:11:A2:C3"))
        #expect(HCILEAddDeviceToFilterAcceptList(addressType: .random, address: BluetoothAddress("F0:33:22:11:A2:C3")!).packet.encoded == add)

        var remove = add
        remove[0] = 0x12
        guard case .leRemoveDeviceFromFilterAcceptList(let removed) = try HCICommandValue(decoding: remove) else { Issue.record("not remove"); return }
        #expect(removed.address == added.address)
        #expect(throws: BLEDecodingError.self) { try HCILEAddDeviceToFilterAcceptList(decoding: hex("01 c3 a2")[...]) }
    }
}
