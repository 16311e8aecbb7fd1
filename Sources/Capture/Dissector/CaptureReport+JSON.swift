import BLECore

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
