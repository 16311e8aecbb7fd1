import ATT
import BLECore
import GATT
import HCI
@testable import Host
import L2CAP
import SMP
import Testing
import VirtualRadio

/// The procedures on a host-mode link, and what its L2CAP fixed channels do with what a peer
/// sends: parameter updates both ways, data length, PHY, RSSI, SMP refused, signaling answered,
/// frames for other channels counted, floods and broken fragments survived.
@Suite("Host-mode links: procedures and L2CAP", .timeLimit(.minutes(2)))
struct LinkProceduresTests {
    /// Waits (yielding, then sleeping briefly on real time) until `condition` holds.
    static func eventually(_ what: String, _ condition: () async -> Bool) async {
        for _ in 0..<2000 {
            if await condition() { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("never: \(what)")
    }

    @Test("the central updates the connection parameters and both sides see the new interval")
    func centralUpdates() async throws {
        let link = try await GATTLink.make(database: "small.json")
        try await link.centralConnection.updateParameters(LEConnectionParametersRequest(intervalMin: 16, intervalMax: 16, timeout: 300))
        #expect(link.centralConnection.state.connectionInterval.rawValue == 16)
        #expect(link.centralConnection.state.supervisionTimeout.rawValue == 300)
        await Self.eventually("the peripheral sees it") { link.peripheralConnection.state.connectionInterval.rawValue == 16 }
        link.radio.shutDown()
    }

    @Test("a peripheral's request within the central's limits is accepted and applied")
    func peripheralRequestAccepted() async throws {
        let link = try await GATTLink.make(database: "small.json")
        try await link.peripheralConnection.updateParameters(LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, timeout: 500))
        await Self.eventually("the central applies it") { (24...40).contains(link.peripheralConnection.state.connectionInterval.rawValue) }
        #expect(link.peripheralConnection.state.supervisionTimeout.rawValue == 500)
        link.radio.shutDown()
    }

    @Test("a central's own update made while a peripheral's accepted request is applied waits its turn: neither is refused, and the central's comes last")
    func overlappingUpdatesTakeTurns() async throws {
        let link = try await GATTLink.make(database: "small.json")
        // Returns once the central accepted; its LE Connection Update is then on its way.
        try await link.peripheralConnection.updateParameters(LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, timeout: 500))
        try await link.centralConnection.updateParameters(LEConnectionParametersRequest(intervalMin: 16, intervalMax: 16, timeout: 300))
        #expect(link.centralConnection.state.connectionInterval.rawValue == 16)
        #expect(link.centralConnection.state.supervisionTimeout.rawValue == 300)
        await Self.eventually("the peripheral sees the central's") { link.peripheralConnection.state.connectionInterval.rawValue == 16 }
        #expect(await link.central.manager.diagnostics.failedPeerParameterUpdates.isEmpty, "the peripheral's was applied first")
        link.radio.shutDown()
    }

    @Test("a peripheral's request outside the central's limits is rejected")
    func peripheralRequestRejected() async throws {
        let radio = VirtualRadio(seed: 21, timing: .paced(speed: 200))
        let central = try await Node.make(radio, managerConfiguration: .init(parameterLimits: LEConnectionParameterLimits(intervals: 6...12)))
        let peripheral = try await Node.make(radio)
        _ = try await peripheral.advertise()
        async let incoming = peripheral.nextIncoming()
        _ = try await central.manager.connect(to: peripheral.information.address, addressType: peripheral.addressType, timeout: .seconds(20))
        let connection = try await incoming
        let error = await #expect(throws: LEConnectionError.self) {
            try await connection.updateParameters(LEConnectionParametersRequest(intervalMin: 80, intervalMax: 100, timeout: 600))
        }
        #expect(error == .parametersRejected)
        radio.shutDown()
    }

    @Test("invalid parameters are refused before anything is sent")
    func invalidParameters() async throws {
        let link = try await GATTLink.make(database: "small.json")
        let error = await #expect(throws: LEConnectionError.self) {
            try await link.centralConnection.updateParameters(LEConnectionParametersRequest(intervalMin: 100, intervalMax: 100, latency: 10, timeout: 100))
        }
        guard case .invalidParameters(let why) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(why.contains("supervision timeout 1000 ms is not longer than"))
        link.radio.shutDown()
    }

    @Test("data length, the 2M PHY and RSSI")
    func dataLengthPHYAndRSSI() async throws {
        let link = try await GATTLink.make(database: "small.json")
        try await link.centralConnection.setDataLength(txOctets: 251)
        await Self.eventually("the data length change") { link.centralConnection.state.maxTXOctets == 251 }
        let phys = try await link.centralConnection.setPHY(.le2M)
        #expect(phys.tx == .le2M && phys.rx == .le2M)
        #expect(link.centralConnection.state.txPHY == .le2M)
        let rssi = try await link.centralConnection.readRSSI()
        #expect((-127...20).contains(rssi))
        // Data still flows after both changes.
        #expect(try await link.client.read(characteristicUUID: BluetoothUUID(0x2A19)).first?.value == [100])
        link.radio.shutDown()
    }

    @Test("a Pairing Request gets Pairing Failed, Pairing Not Supported")
    func pairingRefused() async throws {
        let link = try await GATTLink.make(database: "small.json")
        let request = SMPPDU.pairingRequest(SMPPairingFeatures(ioCapability: .noInputNoOutput, oobDataFlag: .notPresent,
                                                               authReq: SMPAuthenticationRequirements(), maximumEncryptionKeySize: 16,
                                                               initiatorKeyDistribution: [], responderKeyDistribution: []))
        try await link.central.manager.send(channel: .smp, payload: request.encoded, on: link.centralConnection.handle)
        await Self.eventually("the refusal") { await link.peripheral.manager.diagnostics.pairingRefusals == 1 }
        await Self.eventually("the central got Pairing Failed") { await link.central.manager.diagnostics.ignoredSMPPDUs == 1 }
        link.radio.shutDown()
    }

    @Test("unknown signaling commands get Command Reject; frames for other channels are counted")
    func signalingAndUnknownChannels() async throws {
        let link = try await GATTLink.make(database: "small.json")
        let handle = link.centralConnection.handle
        // Code 0x7F, Identifier 0x09, no data: a command nobody defined.
        try await link.central.manager.send(channel: .leSignaling, payload: [0x7F, 0x09, 0x00, 0x00], on: handle)
        // An LE credit-based connection request for SPSM 0x0080: refused.
        let credit = LESignalingPacket(identifier: 0x0A, command: .leCreditBasedConnectionRequest(
            L2CAPLECreditBasedConnectionRequest(spsm: 0x0080, sourceCID: 0x0040, mtu: 100, mps: 100, initialCredits: 4)))
        try await link.central.manager.send(channel: .leSignaling, payload: credit.encoded, on: handle)
        try await link.central.manager.send(channel: L2CAPChannelID(rawValue: 0x0040), payload: [1, 2, 3], on: handle)
        await Self.eventually("answered") { await link.peripheral.manager.diagnostics.signalingAnswers == 2 }
        await Self.eventually("counted") { await link.peripheral.manager.diagnostics.droppedFrames == [0x0040: 1] }
        #expect(try await link.client.read(characteristicUUID: BluetoothUUID(0x2A19)).first?.value == [100])
        link.radio.shutDown()
    }

    @Test("a signaling flood gets bounded answers and the link keeps working")
    func signalingFlood() async throws {
        let link = try await GATTLink.make(database: "small.json")
        let handle = link.centralConnection.handle
        for identifier in 0..<2000 {
            try await link.central.manager.send(channel: .leSignaling, payload: [0x7F, UInt8(identifier % 255 + 1), 0x00, 0x00], on: handle)
        }
        await Self.eventually("every command seen") {
            let d = await link.peripheral.manager.diagnostics
            return d.signalingAnswers + d.unsentSignalingAnswers == 2000
        }
        #expect(try await link.client.read(characteristicUUID: BluetoothUUID(0x2A19)).first?.value == [100])
        link.radio.shutDown()
    }

    @Test("a fragmented PDU that never completes is dropped when the next one starts, and the link keeps working")
    func brokenFragments() async throws {
        let link = try await GATTLink.make(database: "small.json")
        let handle = link.centralConnection.handle
        // A start fragment announcing an ATT PDU of 400 octets, then no continuation.
        let start = HCIACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable,
                                     data: [0x90, 0x01, 0x04, 0x00] + [UInt8](repeating: 0xEE, count: 23))
        try await link.central.flow.send(acl: start)
        // A frame whose Length says more than its fragment holds, marked complete: dropped.
        #expect(try await link.client.read(characteristicUUID: BluetoothUUID(0x2A19)).first?.value == [100])
        await Self.eventually("the abandoned PDU counted") { await link.peripheral.manager.diagnostics.reassemblyProblems >= 1 }
        link.radio.shutDown()
    }

    @Test("writes without response wait for ACL credits: none lost with one controller buffer")
    func backpressure() async throws {
        let small = VirtualControllerConfiguration(totalNumACLDataPackets: 1)
        let link = try await GATTLink.make(centralConfiguration: small, peripheralConfiguration: small)
        _ = try await link.client.exchangeMTU()
        let services = try await link.client.discoverDatabase()
        let writable = try #require(services.flatMap(\.characteristics).first { $0.properties.contains(.writeWithoutResponse) || $0.properties.contains(.write) })
        for index in 0..<200 {
            try await link.client.write([UInt8(truncatingIfNeeded: index)], to: writable.valueHandle)
        }
        #expect(link.central.controller.violations.isEmpty)
        #expect(link.peripheral.controller.violations.isEmpty)
        link.radio.shutDown()
    }
}
