import BLECore
import HCI
@testable import Capture

/// What an nRF Sniffer would have captured over the air during an HCI capture of one LE
/// connection taken on the central's host: the advertising the host saw reported (ADV_IND,
/// the central's SCAN_REQ, SCAN_RSP), the CONNECT_IND, every ACL packet as a data channel PDU
/// in its direction (the central host's sent data central to peripheral, its received data
/// peripheral to central), empty PDUs where a connection event had nothing to send, and
/// LL_TERMINATE_IND at the Disconnect command.
///
/// The conversion also adds what a sniffer sees and an HCI log cannot: an advertising PDU and
/// an ATT Read Request received with a bad CRC (the Read Request then sent again with the same
/// SN, as the peripheral asked for it), the encryption start procedure (LL_ENC_REQ, LL_ENC_RSP,
/// LL_START_ENC_REQ, LL_START_ENC_RSP) before the first notification, after which every
/// non-empty PDU is flagged encrypted and decrypted (MIC OK, the payload is the plaintext),
/// and one notification the sniffer could not decrypt (MIC bad; its payload is not plaintext).
/// Nothing else is invented: the ATT traffic is the HCI capture's, PDU for PDU.
struct OverTheAirSession {
    /// One packet as the sniffer reports it.
    struct Packet {
        /// µs since the Unix epoch.
        var timestamp: Int64
        var record: LinkLayerRecord
        var flags: NordicBLEHeader.Flags
        var channelIndex: UInt8
        var rssiSample: UInt8
        var eventCounter: UInt16
        var isData: Bool { if case .data = record.pdu { true } else { false } }
    }

    /// The connection's access address and CRCInit, chosen for the fixture.
    static let accessAddress: UInt32 = 0x5065_4C14
    static let crcInit: UInt32 = 0x3A_5F12

    private(set) var packets: [Packet] = []
    private var sent: [Bool: Int] = [true: 0, false: 0]      // PDUs sent, by "central sent it"
    private var lastWasCentral: Bool?
    private var eventCounter: UInt16 = 0
    private var lastTimestamp: Int64 = 0
    private var encrypted = false

    /// Converts the HCI records of one connection (btsnoop, H4, from the central's host).
    init(hciRecords records: [CaptureRecord]) throws {
        var central = BluetoothAddress(0)
        var advertiser: BluetoothAddress?
        var connected = false
        var badCRCDone = false, badMICDone = false, advBadCRCDone = false
        for record in records {
            guard case let .hci(type, payload) = record.packet, let hci = try? HCIPacket(type: type, payload: payload[...]) else { continue }
            let t = record.timestamp
            switch hci {
            case .command(let command) where command.opcode == .leSetRandomAddress && command.parameters.count == 6:
                central = BluetoothAddress(littleEndianOctets: command.parameters) ?? central
            case .command(let command) where command.opcode == .disconnect && connected:
                let reason = command.parameters.count >= 3 ? command.parameters[2] : 0x13
                emitData(t, centralSent: true, llid: .control, payload: [LLControlOpcode.terminateInd.rawValue, reason])
                connected = false
            case .event(let event):
                guard let decoded = try? HCIEvent(packet: event) else { continue }
                if case .leMeta(.advertisingReport(let reports)) = decoded {
                    for report in reports.reports {
                        advertiser = report.address
                        if report.eventType == .advInd {
                            let adv = AdvertisingChannelPDU(pduType: .advInd, txAdd: report.addressType == .random,
                                                            payload: .undirected(advA: report.address, advData: report.data))
                            if !advBadCRCDone {
                                // A bit error in AdvA: the sniffer flags the CRC, and the address is not a device.
                                var damaged = adv
                                damaged.payload = .undirected(advA: BluetoothAddress(report.address.value ^ 0x10), advData: report.data)
                                emitAdvertising(t - 400, damaged, crcValid: false, rssi: report.rssi, keepCRCOf: adv)
                                advBadCRCDone = true
                            }
                            emitAdvertising(t, adv, rssi: report.rssi)
                            let request = AdvertisingChannelPDU(pduType: .scanReq, txAdd: true, rxAdd: report.addressType == .random,
                                                                payload: .scanRequest(scanA: central, advA: report.address))
                            emitAdvertising(t + 200, request, rssi: -40)
                        } else if report.eventType == .scanRsp {
                            let response = AdvertisingChannelPDU(pduType: .scanRsp, txAdd: report.addressType == .random,
                                                                 payload: .scanResponse(advA: report.address, scanRspData: report.data))
                            emitAdvertising(t, response, rssi: report.rssi)
                        }
                    }
                } else if case .leMeta(.connectionComplete) = decoded, let peer = advertiser {
                    // LE Connection Complete: Status, Handle, Role, Peer Address Type, Peer
                    // Address, then Interval (2), Latency (2), Timeout (2) from parameter 12.
                    let p = Array(event.parameters.dropFirst())
                    func u16(_ i: Int) -> UInt16 { UInt16(p[i]) | UInt16(p[i + 1]) << 8 }
                    let llData = ConnectIndLLData(accessAddress: Self.accessAddress, crcInit: Self.crcInit, winSize: 2, winOffset: 0,
                                                  interval: u16(11), latency: u16(13), timeout: u16(15),
                                                  channelMap: 0x1F_FFFF_FFFF, hop: 7, sca: 0)
                    let connect = AdvertisingChannelPDU(pduType: .connectInd, txAdd: true, rxAdd: true,
                                                        payload: .connectIndication(initA: central, advA: peer, llData: llData))
                    emitAdvertising(t - 1250, connect, rssi: -40)
                    connected = true
                }
            case .acl(let acl) where connected:
                let centralSent = record.direction == .hostToController
                let llid: DataChannelPDU.LLID = acl.packetBoundary.isStart ? .start : .continuation
                let opcode = acl.packetBoundary.isStart && acl.data.count > 4 ? acl.data[4] : nil
                if opcode == 0x1B, !encrypted {
                    startEncryption(t - 20_000)
                }
                if opcode == 0x0A, !badCRCDone {
                    // The first Read Request is received damaged; the peripheral asks for it again.
                    var damaged = acl.data
                    damaged[damaged.count - 1] ^= 0x01
                    emitData(t - 2000, centralSent: true, llid: llid, payload: damaged, crcValid: false)
                    badCRCDone = true
                }
                if opcode == 0x1B, encrypted, !badMICDone {
                    // A notification the sniffer cannot decrypt: ciphertext and MIC, MIC bad.
                    let ciphertext = acl.data.enumerated().map { UInt8(truncatingIfNeeded: $0.element &* 31 &+ UInt8($0.offset)) ^ 0xA5 }
                    emitData(t, centralSent: centralSent, llid: llid, payload: ciphertext + [0xDE, 0xAD, 0xBE, 0xEF], micValid: false)
                    badMICDone = true
                    continue
                }
                emitData(t, centralSent: centralSent, llid: llid, payload: acl.data)
            default:
                break
            }
        }
    }

    /// LL_ENC_REQ (Rand, EDIV, SKDm, IVm), LL_ENC_RSP (SKDs, IVs), LL_START_ENC_REQ, then both
    /// LL_START_ENC_RSPs, encrypted (Core v5.4, Vol 6, Part B, 5.1.3.1).
    private mutating func startEncryption(_ t: Int64) {
        let encReq = [LLControlOpcode.encReq.rawValue] + (0..<22).map { UInt8($0 * 7 + 1) }
        let encRsp = [LLControlOpcode.encRsp.rawValue] + (0..<12).map { UInt8($0 * 11 + 3) }
        emitData(t, centralSent: true, llid: .control, payload: encReq)
        emitData(t, centralSent: false, llid: .control, payload: encRsp)
        emitData(t, centralSent: false, llid: .control, payload: [LLControlOpcode.startEncReq.rawValue])
        encrypted = true
        emitData(t, centralSent: true, llid: .control, payload: [LLControlOpcode.startEncRsp.rawValue])
        emitData(t, centralSent: false, llid: .control, payload: [LLControlOpcode.startEncRsp.rawValue])
    }

    private mutating func advance(_ t: Int64) -> Int64 {
        let at = max(t, lastTimestamp + 300)
        lastTimestamp = at
        return at
    }

    /// An advertising PDU on channel 37, 38 or 39 in turn; `keepCRCOf` gives the CRC of the
    /// PDU that was sent, for a damaged copy.
    private mutating func emitAdvertising(_ t: Int64, _ pdu: AdvertisingChannelPDU, crcValid: Bool = true, rssi: Int8,
                                          keepCRCOf original: AdvertisingChannelPDU? = nil) {
        let at = advance(t)
        let aa = LinkLayerRecord.advertisingAccessAddress
        var record = LinkLayerRecord(accessAddress: aa, pdu: .advertising(pdu))
        if let original { record.crc = LinkLayerRecord(accessAddress: aa, pdu: .advertising(original)).crc }
        packets.append(Packet(timestamp: at, record: record, flags: .advertising(crcValid: crcValid),
                              channelIndex: 37 + UInt8(packets.count % 3), rssiSample: UInt8(clamping: -Int(rssi)),
                              eventCounter: 0))
    }

    /// A data PDU from one side, after an empty PDU from the other when that side spoke last
    /// (every connection event opens with the central, and the two alternate). SN and NESN
    /// follow from what each side sent: every PDU but a damaged one is acknowledged.
    private mutating func emitData(_ t: Int64, centralSent: Bool, llid: DataChannelPDU.LLID, payload: [UInt8],
                                   crcValid: Bool = true, micValid: Bool = true) {
        if lastWasCentral == centralSent || (lastWasCentral == nil && !centralSent) {
            emitPDU(t - 150, centralSent: !centralSent, llid: .continuation, payload: [], crcValid: true, micValid: true)
        }
        emitPDU(t, centralSent: centralSent, llid: llid, payload: payload, crcValid: crcValid, micValid: micValid)
    }

    private mutating func emitPDU(_ t: Int64, centralSent: Bool, llid: DataChannelPDU.LLID, payload: [UInt8],
                                  crcValid: Bool, micValid: Bool) {
        let at = advance(t)
        if centralSent { eventCounter &+= 1 }
        let sn = UInt8(sent[centralSent]! % 2)
        let nesn = UInt8(sent[!centralSent]! % 2)
        // A damaged PDU is not acknowledged, so it is sent again with the same SN.
        if crcValid { sent[centralSent]! += 1 }
        lastWasCentral = centralSent
        let pdu = DataChannelPDU(llid: llid, nesn: nesn, sn: sn, payload: payload)
        var record = LinkLayerRecord(accessAddress: Self.accessAddress, pdu: .data(pdu), crcInit: Self.crcInit)
        if !crcValid { record.crc ^= 0x00_0100 }
        let isEncrypted = encrypted && !payload.isEmpty
        packets.append(Packet(timestamp: at, record: record,
                              flags: .data(crcValid: crcValid, centralToPeripheral: centralSent, encrypted: isEncrypted,
                                           micValid: isEncrypted && micValid),
                              channelIndex: UInt8((Int(eventCounter) * 7) % 37), rssiSample: centralSent ? 40 : 55,
                              eventCounter: eventCounter))
    }
}
