import ATT
import BLECore
import HCI
import L2CAP

extension DissectedPacket {
    /// The packet as one line: its frame number (from 1, as Wireshark counts), seconds since the
    /// first record, direction, the controller for monitor captures, and a summary down to the
    /// deepest layer decoded, for example
    /// `   188     1.578608 H>C ACL 0x0040 ATT Write Request handle 0x0015 (Heart Rate Control Point) value 01`.
    ///
    /// Directions: `H>C` host to controller, `C>H` controller to host, `C>P` central to
    /// peripheral and `P>C` peripheral to central over the air, `---` unknown. Notes (reassembly
    /// diagnostics, retransmissions) follow after ` !! `.
    public var line: String {
        var out = TextOutput(capacity: 256)
        writeLine(to: &out)
        return out.string
    }

    /// Appends ``line`` to `out`, without its newline: the text a decoder prints for the packet,
    /// written straight into the octets that go to the output.
    public func writeLine(to out: inout TextOutput) {
        CaptureText.writeLinePrefix(frame: index + 1, microseconds: relativeTime, to: &out)
        out.write(CaptureText.direction(direction, inferred: isDirectionInferred))
        out.write(octet: UInt8(ascii: " "))
        if let controllerIndex {
            out.write("[hci")
            out.writeDecimal(UInt64(controllerIndex))
            out.write("] ")
        }
        writeSummary(to: &out)
        for note in notes {
            out.write(" !! ")
            out.write(string: note)
        }
    }

    /// The summary part of ``line``: what the packet is, down to ATT, SMP or signaling.
    public var summary: String {
        var out = TextOutput(capacity: 256)
        writeSummary(to: &out)
        return out.string
    }

    /// Appends ``summary`` to `out`; advertising reports without a string of their own.
    public func writeSummary(to out: inout TextOutput) {
        if case let .event(_, event, advertising) = content, event.failureStatus == nil, !advertising.isEmpty {
            out.write("HCI Event ")
            out.write(string: event.name)
            out.write(": ")
            for (i, report) in advertising.enumerated() {
                if i > 0 { out.write("; ") }
                report.writeDescription(to: &out)
            }
            return
        }
        out.write(string: otherSummary)
    }

    /// ``summary`` for every packet but an event with advertising reports.
    private var otherSummary: String {
        switch content {
        case let .command(packet, value):
            return "HCI Command " + (value?.description ?? packet.description)
        case let .event(_, event, _):
            if let status = event.failureStatus {
                return "HCI Event \(event.name) status=\(status) (the other parameters carry no meaning on failure)"
            }
            return "HCI Event \(event)"   // advertising reports are written by writeSummary
        case let .acl(acl, stage):
            return "ACL \(Hex.hex16(acl.handle)) " + stage.summary(octets: acl.data.count, boundary: acl.packetBoundary.description)
        case .sco(let sco):
            return "SCO \(Hex.hex16(sco.handle)) \(sco.data.count) octets"
        case .iso(let iso):
            return "ISO \(iso)"
        case let .monitor(opcode, payload):
            return "Monitor \(opcode)" + CaptureText.monitorDetail(opcode, payload)
        case let .packetLogger(type, payload):
            return "PacketLogger " + CaptureText.packetLoggerDetail(type, payload)
        case let .linkLayer(ll, stage):
            return stage.summary(ll)
        case let .unsupported(linkType, octets):
            return "\(linkType) record, \(octets) octets (not decoded)"
        case let .malformed(layer, reason, octets):
            return "malformed \(layer) (\(octets.count) octets): \(reason)"
        }
    }
}

extension DissectedPacket.L2CAPStage {
    func summary(octets: Int, boundary: String) -> String {
        switch self {
        case .fragment: return "L2CAP fragment, \(octets) octets, \(boundary)"
        case .complete(_, let content): return content.summary
        case .dropped: return "L2CAP fragment dropped, \(octets) octets, \(boundary)"
        }
    }
}

extension DissectedPacket.LinkLayerStage {
    func summary(_ ll: LinkLayerRecord) -> String {
        let aa = "LL 0x" + String(ll.accessAddress, radix: 16)
        switch self {
        case .advertising(let data):
            guard case .advertising(let adv) = ll.pdu else { return ll.description }
            var text = "LL \(adv.pduType)"
            if let advA = adv.advA { text += " \(advA) (\(adv.advAAddressType))" }
            if case let .connectIndication(initA, _, llData) = adv.payload {
                text += " from \(initA) (\(adv.senderAddressType)) \(llData)"
            }
            if let data, !data.elements.isEmpty { text += ": \(data)" }
            return text
        case .linkControl:
            guard case .data(let pdu) = ll.pdu else { return ll.description }
            return "\(aa) \(pdu)"
        case .l2cap(let stage):
            guard case .data(let pdu) = ll.pdu else { return ll.description }
            return "\(aa) " + stage.summary(octets: pdu.payload.count, boundary: pdu.llid.description)
        case .encrypted:
            guard case .data(let pdu) = ll.pdu else { return ll.description }
            return "\(aa) encrypted \(pdu.llid) payload, \(pdu.payload.count) octets"
        case .retransmission:
            return "\(aa) retransmission"
        case .badCRC:
            return "\(aa) CRC error, not decoded"
        case .badMIC:
            return "\(aa) MIC error (decrypted incorrectly), not decoded"
        }
    }
}

extension AdvertisingSummary: CustomStringConvertible {
    /// "D0:0D:FE:ED:48:52 (random) ADV_IND -58 dBm: Flags 0x06 (...), Complete Local Name "X"";
    /// a joined chain ends in " (joined from 3 fragments)", an incomplete payload in
    /// " (truncated)"; a fragment waiting for its chain reads "...: fragment 1, 229 octets, held
    /// for the rest of its chain", a discarded one "...: fragment discarded, 229 octets (its chain
    /// was cut at a bound)".
    public var description: String {
        var out = TextOutput(capacity: 256)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        address.writeDescription(to: &out)
        out.write(" (")
        out.write(string: addressType.description)
        out.write(") ")
        switch reportEventType {
        case .legacy(let type): type.writeDescription(to: &out)
        case .extended(let type): type.writeDescription(to: &out)
        }
        if let rssi {
            out.write(octet: UInt8(ascii: " "))
            out.writeDecimal(Int(rssi))
            out.write(" dBm")
        }
        switch disposition {
        case .pending:
            out.write(": fragment ")
            out.writeDecimal(fragments)
            out.write(", ")
            out.writeDecimal(reportOctets.count)
            out.write(" octets, held for the rest of its chain")
            return
        case .discarded:
            out.write(": fragment discarded, ")
            out.writeDecimal(reportOctets.count)
            out.write(" octets (its chain was cut at a bound)")
            return
        case .complete, .truncated:
            break
        }
        if !data.elements.isEmpty {
            out.write(": ")
            data.writeDescription(to: &out)
        }
        let joined = fragments > 1, truncated = disposition == .truncated
        if joined || truncated {
            out.write(" (")
            if joined {
                out.write("joined from ")
                out.writeDecimal(fragments)
                out.write(" fragments")
            }
            if joined && truncated { out.write(", ") }
            if truncated { out.write("truncated") }
            out.write(octet: UInt8(ascii: ")"))
        }
    }
}

extension HCIEvent {
    /// The event's name: the LE subevent's for LE Meta events ("LE Advertising Report").
    var name: String {
        if case .leMeta(let meta) = self { return meta.subeventCode.description }
        return code.description
    }

    /// The Status of an event whose other parameters are only defined on success (a
    /// connection that was not created, remote features that were not read), when it failed;
    /// nil otherwise. Controllers fill those parameters with leftovers, which would mislead.
    var failureStatus: HCIStatus? {
        let status: HCIStatus
        switch self {
        case .leMeta(.connectionComplete(let e)): status = e.status
        case .leMeta(.enhancedConnectionComplete(let e)): status = e.status
        case .leMeta(.enhancedConnectionCompleteV2(let e)): status = e.connection.status
        case .leMeta(.readRemoteFeaturesComplete(let e)): status = e.status
        default: return nil
        }
        return status.isSuccess ? nil : status
    }
}

/// Text helpers shared by the packet lines and the report.
enum CaptureText {

    /// The start of a packet line, "   188     1.578608 ": the frame number right-aligned in 6
    /// columns, a space, ``seconds(_:)`` right-aligned in 12, a space (wider values push the
    /// columns right).
    static func linePrefix(frame: Int, microseconds: Int64) -> String {
        var out = TextOutput(capacity: 20)
        writeLinePrefix(frame: frame, microseconds: microseconds, to: &out)
        return out.string
    }

    /// Appends ``linePrefix(frame:microseconds:)``'s text to `out`.
    static func writeLinePrefix(frame: Int, microseconds: Int64, to out: inout TextOutput) {
        let frameDigits = TextOutput.decimalDigitCount(UInt64(frame.magnitude))
        let m = microseconds.magnitude
        let secondsDigits = TextOutput.decimalDigitCount(m / 1_000_000)
        let frameWidth = (frame < 0 ? 1 : 0) + frameDigits
        let timeWidth = (microseconds < 0 ? 1 : 0) + secondsDigits + 7
        let frameColumn = max(6, frameWidth), timeColumn = max(12, timeWidth)
        // The whole prefix in one piece of the writer, filled from the right of each column.
        out.withUnsafeSpace(frameColumn + 1 + timeColumn + 1) { text in
            text.initialize(repeating: 0x20)
            /// Writes `value`'s decimal digits so that the last ends before `end`.
            func digits(_ value: UInt64, endingAt end: Int, count: Int) {
                var v = value
                for k in stride(from: end - 1, through: end - count, by: -1) {
                    text[k] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
                    v /= 10
                }
            }
            digits(UInt64(frame.magnitude), endingAt: frameColumn, count: frameDigits)
            if frame < 0 { text[frameColumn - frameDigits - 1] = UInt8(ascii: "-") }
            let timeEnd = frameColumn + 1 + timeColumn
            digits(m % 1_000_000, endingAt: timeEnd, count: 6)
            text[timeEnd - 7] = UInt8(ascii: ".")
            digits(m / 1_000_000, endingAt: timeEnd - 7, count: secondsDigits)
            if microseconds < 0 { text[timeEnd - 7 - secondsDigits - 1] = UInt8(ascii: "-") }
        }
    }

    /// A name from the air in double quotes, with quotes, backslashes and control characters
    /// escaped, so that no name can start a line of its own or forge output.
    static func quoted(_ name: String) -> String { name.debugDescription }

    /// "12.345678": microseconds as seconds with six decimals.
    static func seconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let m = microseconds.magnitude
        let fraction = String(m % 1_000_000)
        return "\(sign)\(m / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `H>C`, `C>H`, `C>P`, `P>C`, or `---`; an over-the-air direction inferred from timing is
    /// in lower case (`c>p`, `p>c`).
    static func direction(_ d: CaptureDirection, inferred: Bool = false) -> StaticString {
        switch d {
        case .hostToController: return "H>C"
        case .controllerToHost: return "C>H"
        case .centralToPeripheral: return inferred ? "c>p" : "C>P"
        case .peripheralToCentral: return inferred ? "p>c" : "P>C"
        case .unknown: return "---"
        }
    }

    /// The text of monitor records that carry text (System Note, User Logging).
    static func monitorDetail(_ opcode: MonitorOpcode, _ payload: [UInt8]) -> String {
        let printable = payload.filter { $0 >= 0x20 && $0 < 0x7F }
        if opcode == .systemNote || opcode == .userLogging, !printable.isEmpty {
            return ": " + String(decoding: printable, as: UTF8.self)
        }
        return payload.isEmpty ? "" : ", \(payload.count) octets"
    }

    /// A PacketLogger record that is not HCI: "Note: text" for the text types (printable
    /// characters only, so no record can forge a line), "Sent LMP, 17 octets (not decoded)" for
    /// the others, "packet type 0x42, 3 octets (not decoded)" for an unknown type.
    static func packetLoggerDetail(_ type: PacketLoggerPacketType, _ payload: [UInt8]) -> String {
        if type.isText { return "\(type): " + text(payload) }
        return "\(type), \(payload.count) octet\(payload.count == 1 ? "" : "s") (not decoded)"
    }

    /// The printable ASCII of `octets` (others dropped), as PacketLogger's text records hold
    /// their text: UTF-8, often ending in a NUL.
    static func text(_ octets: [UInt8]) -> String {
        String(decoding: octets.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }

    /// "2025-01-25 16:53:02.430950 UTC" for microseconds since the Unix epoch (proleptic
    /// Gregorian calendar); outside the years 0001...9999 (a damaged or synthetic timestamp),
    /// the raw count: "1234567 us since 1970".
    static func utc(_ microseconds: Int64) -> String {
        // 0001-01-01 and 10000-01-01 in microseconds since 1970-01-01.
        guard microseconds >= -62_135_596_800_000_000, microseconds < 253_402_300_800_000_000 else {
            return "\(microseconds) us since 1970"
        }
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let micros = microseconds - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days to civil date (Howard Hinnant's algorithm, public domain).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let fraction = String(micros)
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))."
            + String(repeating: "0", count: 6 - fraction.count) + fraction + " UTC"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
