import ATT
import BLECore
import HCI
import L2CAP
import SMP

extension DissectedPacket {
    /// Writes the packet as one JSON object (for `blectl decode --json`):
    ///
    /// - always: `index` (from 0), `frame` (from 1, as Wireshark numbers frames), `time` (seconds since the first record), `timestamp_us` (since the Unix
    ///   epoch), `direction`, `summary` (the text of ``summary``), and `controller` for monitor captures;
    /// - by layer: `hci` (`type`, and `opcode` or `event_code`/`subevent`, `name`; for ACL `handle`,
    ///   `packet_boundary`, `length`), `link_layer` (`access_address`, `stage`, and what the
    ///   capture header says: `channel_index`, `rssi` in dBm, `phy`, `crc_valid`, `mic_valid`), `l2cap` (`cid`, `length`), `att` (`opcode` as an
    ///   integer, `name`, the PDU's fields, and `handle_names` from the capture's GATT discovery),
    ///   `smp`, `signaling`; `monitor` for Linux monitor records, `packetlogger` (`type`, `name`,
    ///   `length`, and `text` for text records) for PacketLogger records that are not HCI;
    /// - `error` (`layer`, `reason`) for a malformed packet, `notes` for diagnostics.
    ///
    /// The object is written straight into `json`'s output, with no tree in between.
    public func writeJSON(to json: inout JSONWriter) {
        json.beginObject()
        json.member("index", index)
        json.member("frame", index + 1)
        json.key("time")
        if hasTimestamp { json.value(Double(relativeTime) / 1_000_000) } else { json.null() }
        json.key("timestamp_us")
        if hasTimestamp { json.value(Int(timestamp)) } else { json.null() }
        json.member("direction", Self.jsonDirection(direction))
        if isDirectionInferred { json.member("direction_inferred", true) }
        if let controllerIndex { json.member("controller", Int(controllerIndex)) }
        json.key("summary")
        json.stringValue { writeSummary(to: &$0) }
        switch content {
        case let .command(packet, _):
            json.object("hci") {
                $0.member("type", "command")
                $0.member("opcode", Int(packet.opcode.rawValue))
                $0.member("name", packet.opcode.name ?? "unknown")
            }
        case let .event(packet, event, advertising):
            json.object("hci") {
                $0.member("type", "event")
                $0.member("event_code", Int(packet.code.rawValue))
                if case .leMeta(let meta) = event { $0.member("subevent", Int(meta.subeventCode.rawValue)) }
                $0.member("name", event.name)
            }
            if !advertising.isEmpty {
                json.array("advertising_reports") { json in
                    for report in advertising { report.writeJSON(to: &json) }
                }
            }
        case let .acl(acl, stage):
            json.object("hci") {
                $0.member("type", "acl")
                $0.member("handle", Int(acl.handle))
                $0.member("packet_boundary", Int(acl.packetBoundary.rawValue))
                $0.member("length", acl.data.count)
            }
            Self.writeL2CAPMembers(stage, to: &json)
        case .sco(let sco):
            json.object("hci") {
                $0.member("type", "sco")
                $0.member("handle", Int(sco.handle))
                $0.member("length", sco.data.count)
            }
        case .iso:
            json.object("hci") { $0.member("type", "iso") }
        case let .monitor(opcode, payload):
            json.object("monitor") {
                $0.member("opcode", Int(opcode.rawValue))
                $0.member("name", opcode.description)
                $0.member("length", payload.count)
            }
        case let .linkLayer(ll, stage):
            json.object("link_layer") {
                $0.member("access_address", Int(ll.accessAddress))
                $0.member("stage", stage.name)
                let sniffer = ll.sniffer
                if let channel = sniffer.channelIndex { $0.member("channel_index", Int(channel)) }
                if let rssi = sniffer.rssi { $0.member("rssi", rssi) }
                if let phy = sniffer.phy { $0.member("phy", NordicBLEHeader.phyName(phy)) }
                if let valid = sniffer.isCRCValid { $0.member("crc_valid", valid) }
                if let valid = sniffer.isMICValid { $0.member("mic_valid", valid) }
            }
            if case .l2cap(let l2cap) = stage { Self.writeL2CAPMembers(l2cap, to: &json) }
        case let .packetLogger(type, payload):
            json.object("packetlogger") {
                $0.member("type", Int(type.rawValue))
                $0.member("name", type.description)
                $0.member("length", payload.count)
                if type.isText { $0.member("text", CaptureText.text(payload)) }
            }
        case let .unsupported(linkType, octets):
            json.object("unsupported") {
                $0.member("link_type", Int(linkType.rawValue))
                $0.member("length", octets)
            }
        case let .malformed(layer, reason, _):
            Self.writeError(layer: layer, reason: reason, to: &json)
        }
        if !notes.isEmpty {
            json.array("notes") { json in
                for note in notes { json.value(note) }
            }
        }
        json.endObject()
    }

    /// The packet's JSON object (``writeJSON(to:)``) as text, with no newline.
    public var jsonText: String {
        var json = JSONWriter(output: TextOutput(capacity: 512))
        writeJSON(to: &json)
        return json.output.string
    }

    static func jsonDirection(_ d: CaptureDirection) -> String {
        switch d {
        case .hostToController: return "host_to_controller"
        case .controllerToHost: return "controller_to_host"
        case .centralToPeripheral: return "central_to_peripheral"
        case .peripheralToCentral: return "peripheral_to_central"
        case .unknown: return "unknown"
        }
    }

    /// `"error": {"layer", "reason", "offset"?}`.
    static func writeError(layer: String, reason: String, offset: Int? = nil, to json: inout JSONWriter) {
        json.object("error") {
            $0.member("layer", layer)
            $0.member("reason", reason)
            if let offset { $0.member("offset", offset) }
        }
    }

    /// `l2cap`, then what the frame carried: `att`, `smp`, `signaling`, or an `error`.
    static func writeL2CAPMembers(_ stage: L2CAPStage, to json: inout JSONWriter) {
        guard case let .complete(frame, content) = stage else {
            json.object("l2cap") { $0.member("fragment", true) }
            return
        }
        json.object("l2cap") {
            $0.member("cid", Int(frame.channelID.rawValue))
            $0.member("length", frame.payload.count)
        }
        switch content {
        case let .att(pdu, annotation):
            json.object("att") { json in
                json.member("opcode", Int(pdu.opcode.rawValue))
                json.member("name", pdu.opcode.name)
                writeJSONMembers(pdu.fields, to: &json)
                if !annotation.handleNames.isEmpty {
                    json.object("handle_names") { json in
                        for (handle, name) in annotation.handleNames.sorted(by: { $0.key < $1.key }) {
                            json.key(escaping: Hex.hex16(handle))
                            json.value(name)
                        }
                    }
                }
            }
        case let .attMalformed(payload, error):
            json.object("att") {
                if let opcode = payload.first {
                    $0.member("opcode", Int(opcode))
                    $0.member("name", ATTOpcode(rawValue: opcode).name)
                    $0.member("malformed", true)
                }
            }
            writeError(layer: "ATT", reason: error.description, offset: error.offset, to: &json)
        case .smp(let pdu):
            json.object("smp") {
                $0.member("code", Int(pdu.code.rawValue))
                $0.member("name", pdu.code.description)
                $0.member("description", pdu.description)
            }
        case let .smpMalformed(_, error):
            writeError(layer: "SMP", reason: error.description, to: &json)
        case let .signaling(packet, command):
            json.object("signaling") {
                $0.member("code", Int(packet.code.rawValue))
                $0.member("identifier", Int(packet.identifier))
                $0.member("description", command.description)
            }
        case let .signalingMalformed(_, error):
            writeError(layer: "L2CAP signaling", reason: error.description, to: &json)
        case .other:
            break
        }
    }

    /// An ATT field's value: an integer, hexadecimal octets, a UUID's text, a name, or a list of
    /// objects.
    static func writeJSON(_ value: ATTFieldValue, to json: inout JSONWriter) {
        switch value {
        case .integer(let i): json.value(i)
        case .octets(let o): json.hexValue(o)
        case .uuid(let u): json.stringValue { u.writeDescription(to: &$0) }
        case .text(let t): json.value(t)
        case .list(let entries):
            json.array { json in
                for entry in entries {
                    json.object { writeJSONMembers(entry, to: &$0) }
                }
            }
        }
    }

    /// ATT fields as members of the object being written: each field's name, then its value.
    static func writeJSONMembers(_ fields: [ATTField], to json: inout JSONWriter) {
        for field in fields {
            json.key(escaping: field.name)
            writeJSON(field.value, to: &json)
        }
    }
}

extension AdvertisingSummary {
    /// Writes `{"address", "address_type", "event_type", "rssi"?, "data" (hex), "local_name"?}`,
    /// and for a report that is part of a chain or incomplete: `"chain"` (`"joined"`,
    /// `"truncated"`, `"pending"` or `"discarded"`), `"fragments"`, and `"report_data"` (hex, the
    /// report's own).
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("address")
            json.stringValue { address.writeDescription(to: &$0) }
            json.member("address_type", addressType.description)
            json.member("event_type", eventType)
            if let rssi { json.member("rssi", Int(rssi)) }
            json.key("data")
            json.hexValue(data.bytes)
            if let name = data.localName?.string { json.member("local_name", name) }
            if disposition != .complete || fragments != 1 {
                let chain: StaticString
                switch disposition {
                case .complete: chain = "joined"
                case .truncated: chain = "truncated"
                case .pending: chain = "pending"
                case .discarded: chain = "discarded"
                }
                json.key("chain")
                json.stringValue { $0.write(chain) }
                json.member("fragments", fragments)
                json.key("report_data")
                json.hexValue(reportOctets)
            }
        }
    }
}

extension DissectedPacket.LinkLayerStage {
    var name: String {
        switch self {
        case .advertising: return "advertising"
        case .linkControl: return "link_control"
        case .l2cap: return "l2cap"
        case .encrypted: return "encrypted"
        case .retransmission: return "retransmission"
        case .badCRC: return "bad_crc"
        case .badMIC: return "bad_mic"
        }
    }
}
