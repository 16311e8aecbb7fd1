import ATT
import BLECore
import HCI
import L2CAP
import SMP

extension DissectedPacket {
    /// The packet as one JSON object (for `blectl decode --json`):
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
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("index", .int(index)),
            ("frame", .int(index + 1)),
            ("time", hasTimestamp ? .double(Double(relativeTime) / 1_000_000) : .null),
            ("timestamp_us", hasTimestamp ? .int(Int(timestamp)) : .null),
            ("direction", .string(Self.jsonDirection(direction))),
        ]
        if isDirectionInferred { members.append(("direction_inferred", .bool(true))) }
        if let controllerIndex { members.append(("controller", .int(Int(controllerIndex)))) }
        members.append(("summary", .string(summary)))
        switch content {
        case let .command(packet, _):
            members.append(("hci", .object([("type", .string("command")), ("opcode", .int(Int(packet.opcode.rawValue))),
                                            ("name", .string(packet.opcode.name ?? "unknown"))])))
        case let .event(packet, event, advertising):
            var hci: [(String, JSONValue)] = [("type", .string("event")), ("event_code", .int(Int(packet.code.rawValue)))]
            if case .leMeta(let meta) = event { hci.append(("subevent", .int(Int(meta.subeventCode.rawValue)))) }
            hci.append(("name", .string(event.name)))
            members.append(("hci", .object(hci)))
            if !advertising.isEmpty { members.append(("advertising_reports", .array(advertising.map(\.json)))) }
        case let .acl(acl, stage):
            members.append(("hci", .object([("type", .string("acl")), ("handle", .int(Int(acl.handle))),
                                            ("packet_boundary", .int(Int(acl.packetBoundary.rawValue))),
                                            ("length", .int(acl.data.count))])))
            members += Self.l2capMembers(stage)
        case .sco(let sco):
            members.append(("hci", .object([("type", .string("sco")), ("handle", .int(Int(sco.handle))), ("length", .int(sco.data.count))])))
        case .iso:
            members.append(("hci", .object([("type", .string("iso"))])))
        case let .monitor(opcode, payload):
            members.append(("monitor", .object([("opcode", .int(Int(opcode.rawValue))), ("name", .string(opcode.description)),
                                                ("length", .int(payload.count))])))
        case let .linkLayer(ll, stage):
            var linkLayer: [(String, JSONValue)] = [("access_address", .int(Int(ll.accessAddress))), ("stage", .string(stage.name))]
            let sniffer = ll.sniffer
            if let channel = sniffer.channelIndex { linkLayer.append(("channel_index", .int(Int(channel)))) }
            if let rssi = sniffer.rssi { linkLayer.append(("rssi", .int(rssi))) }
            if let phy = sniffer.phy { linkLayer.append(("phy", .string(NordicBLEHeader.phyName(phy)))) }
            if let valid = sniffer.isCRCValid { linkLayer.append(("crc_valid", .bool(valid))) }
            if let valid = sniffer.isMICValid { linkLayer.append(("mic_valid", .bool(valid))) }
            members.append(("link_layer", .object(linkLayer)))
            if case .l2cap(let l2cap) = stage { members += Self.l2capMembers(l2cap) }
        case let .packetLogger(type, payload):
            var record: [(String, JSONValue)] = [("type", .int(Int(type.rawValue))), ("name", .string(type.description)),
                                                 ("length", .int(payload.count))]
            if type.isText { record.append(("text", .string(CaptureText.text(payload)))) }
            members.append(("packetlogger", .object(record)))
        case let .unsupported(linkType, octets):
            members.append(("unsupported", .object([("link_type", .int(Int(linkType.rawValue))), ("length", .int(octets))])))
        case let .malformed(layer, reason, _):
            members.append(("error", .object([("layer", .string(layer)), ("reason", .string(reason))])))
        }
        if !notes.isEmpty { members.append(("notes", .array(notes.map { .string($0) }))) }
        return .object(members)
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

    static func l2capMembers(_ stage: L2CAPStage) -> [(String, JSONValue)] {
        guard case let .complete(frame, content) = stage else {
            return [("l2cap", .object([("fragment", .bool(true))]))]
        }
        var members: [(String, JSONValue)] = [("l2cap", .object([("cid", .int(Int(frame.channelID.rawValue))),
                                                                 ("length", .int(frame.payload.count))]))]
        switch content {
        case let .att(pdu, annotation):
            var att: [(String, JSONValue)] = [("opcode", .int(Int(pdu.opcode.rawValue))), ("name", .string(pdu.opcode.name))]
            att += pdu.fields.map { ($0.name, Self.json($0.value)) }
            if !annotation.handleNames.isEmpty {
                att.append(("handle_names", .object(annotation.handleNames.sorted { $0.key < $1.key }
                    .map { (Hex.hex16($0.key), .string($0.value)) })))
            }
            members.append(("att", .object(att)))
        case let .attMalformed(payload, error):
            var att: [(String, JSONValue)] = []
            if let opcode = payload.first {
                att = [("opcode", .int(Int(opcode))), ("name", .string(ATTOpcode(rawValue: opcode).name)), ("malformed", .bool(true))]
            }
            members.append(("att", .object(att)))
            members.append(("error", .object([("layer", .string("ATT")), ("reason", .string(error.description)),
                                              ("offset", .int(error.offset))])))
        case .smp(let pdu):
            members.append(("smp", .object([("code", .int(Int(pdu.code.rawValue))), ("name", .string(pdu.code.description)),
                                            ("description", .string(pdu.description))])))
        case let .smpMalformed(_, error):
            members.append(("error", .object([("layer", .string("SMP")), ("reason", .string(error.description))])))
        case let .signaling(packet, command):
            members.append(("signaling", .object([("code", .int(Int(packet.code.rawValue))), ("identifier", .int(Int(packet.identifier))),
                                                  ("description", .string(command.description))])))
        case let .signalingMalformed(_, error):
            members.append(("error", .object([("layer", .string("L2CAP signaling")), ("reason", .string(error.description))])))
        case .other:
            break
        }
        return members
    }

    static func json(_ value: ATTFieldValue) -> JSONValue {
        switch value {
        case .integer(let i): return .int(i)
        case .octets(let o): return .string(Hex.encode(o))
        case .uuid(let u): return .string(u.description)
        case .text(let t): return .string(t)
        case .list(let entries): return .array(entries.map { .object($0.map { ($0.name, json($0.value)) }) })
        }
    }
}

extension AdvertisingSummary {
    /// `{"address", "address_type", "event_type", "rssi"?, "data" (hex), "local_name"?}`, and for
    /// a report that is part of a chain or incomplete: `"chain"` (`"joined"`, `"truncated"`,
    /// `"pending"` or `"discarded"`), `"fragments"`, and `"report_data"` (hex, the report's own).
    var json: JSONValue {
        var m: [(String, JSONValue)] = [("address", .string(address.description)), ("address_type", .string(addressType.description)),
                                        ("event_type", .string(eventType))]
        if let rssi { m.append(("rssi", .int(Int(rssi)))) }
        m.append(("data", .string(Hex.encode(data.bytes))))
        if let name = data.localName?.string { m.append(("local_name", .string(name))) }
        if disposition != .complete || fragments != 1 {
            let chain: String
            switch disposition {
            case .complete: chain = "joined"
            case .truncated: chain = "truncated"
            case .pending: chain = "pending"
            case .discarded: chain = "discarded"
            }
            m.append(("chain", .string(chain)))
            m.append(("fragments", .int(fragments)))
            m.append(("report_data", .string(Hex.encode(reportOctets))))
        }
        return .object(m)
    }
}

extension ReconstructedGATTTable {
    /// The table as JSON: `{"services": [{"handle", "end_group_handle", "uuid", "name"?, "primary"}],
    /// "characteristics": [{"declaration_handle", "value_handle", "uuid", "name"?, "properties"}],
    /// "descriptors": [{"handle", "uuid", "name"?}], "includes": [...]}`, each sorted by handle.
    var json: JSONValue {
        func named(_ uuid: BluetoothUUID) -> [(String, JSONValue)] {
            [("uuid", .string(uuid.description))] + (uuid.name.map { [("name", .string($0))] } ?? [])
        }
        return .object([
            ("services", .array(services.values.sorted { $0.handle < $1.handle }.map { s in
                .object([("handle", .int(Int(s.handle))), ("end_group_handle", .int(Int(s.endGroupHandle)))] + named(s.uuid)
                        + [("primary", .bool(s.isPrimary))])
            })),
            ("includes", .array(includes.values.sorted { $0.handle < $1.handle }.map { i in
                .object([("handle", .int(Int(i.handle))), ("included_service_handle", .int(Int(i.includedServiceHandle))),
                         ("end_group_handle", .int(Int(i.endGroupHandle)))] + (i.uuid.map(named) ?? []))
            })),
            ("characteristics", .array(characteristics.values.sorted { $0.declarationHandle < $1.declarationHandle }.map { c in
                .object([("declaration_handle", .int(Int(c.declarationHandle))), ("value_handle", .int(Int(c.valueHandle)))]
                        + named(c.uuid) + [("properties", .int(Int(c.properties)))])
            })),
            ("descriptors", .array(descriptors.sorted { $0.key < $1.key }.map { h, uuid in
                .object([("handle", .int(Int(h)))] + named(uuid))
            })),
        ])
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

extension CaptureReport {
    /// The report as one JSON object, `{"summary": {...}}`, printed after the packets by
    /// `blectl decode --json`.
    public var json: JSONValue {
        let devices: [JSONValue] = self.devices.map { d in
            var m: [(String, JSONValue)] = [("address", .string(d.address.description)), ("address_type", .string(d.addressType))]
            if let name = d.name { m.append(("name", .string(name))) }
            m.append(("advertising_reports", .int(d.advertisingReports)))
            if let rssi = d.lastRSSI { m.append(("rssi", .int(Int(rssi)))) }
            m.append(("connectable", .bool(d.connectable)))
            return .object(m)
        }
        let connections: [JSONValue] = self.connections.map { c in
            var m: [(String, JSONValue)] = [("link", .string(c.link.description))]
            if let peer = c.peerAddress { m.append(("peer", .string(peer.description))) }
            if let type = c.peerAddressType { m.append(("peer_address_type", .string(type))) }
            if let name = c.peerName { m.append(("peer_name", .string(name))) }
            if let role = c.role { m.append(("role", .string(role))) }
            m += [("connection_event_seen", .bool(c.connectionEventSeen)),
                  ("first_frame", .int(c.firstRecord + 1)), ("last_frame", .int(c.lastRecord + 1)),
                  ("att_pdus", .int(c.attPDUs)), ("encrypted", .bool(c.encrypted))]
            if let mtu = c.attMTU { m.append(("att_mtu", .int(mtu))) }
            if let reason = c.disconnectReason { m.append(("disconnect_reason", .string(reason))) }
            m.append(("gatt", c.gatt.json))
            return .object(m)
        }
        var summary: [(String, JSONValue)] = [("records", .int(recordCount))]
        if let first = firstTimestamp, let last = lastTimestamp {
            summary += [("first_timestamp_us", .int(Int(first))), ("last_timestamp_us", .int(Int(last)))]
        }
        summary += [
            ("hci_commands", .int(hciCommands)), ("hci_events", .int(hciEvents)), ("acl_packets", .int(aclPackets)),
            ("link_layer_packets", .int(linkLayerPackets)),
            ("malformed", .int(malformedCount)),
            ("devices", .array(devices)),
            ("evictions", .object([("devices", .int(evictions.devices)), ("links", .int(evictions.links)),
                                   ("controllers", .int(evictions.controllers)), ("air_connections", .int(evictions.airConnections))])),
            ("connections", .array(connections)), ("unlisted_connections", .int(unlistedConnections)),
            ("att_counts", .object(attCounts.map { ("0x" + Hex.encode([$0.opcode.rawValue]), .int($0.count)) })),
            ("smp_pdus", .int(smpPDUs)), ("signaling_pdus", .int(signalingPDUs)),
        ]
        return .object([("summary", .object(summary))])
    }
}
