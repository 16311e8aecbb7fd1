import ATT
import BLECore
import GATT

/// Discovery PDUs as GATT reads them: attribute values that are UUIDs or declarations, decoded
/// with GATT's declaration codecs, where the ATT codec alone can only print octets (it does not
/// know the request a response answers). Core v5.4, Vol 3, Part G, 3.1-3.3 and 4.4-4.7. A value
/// that does not decode prints as its octets.
enum DiscoveryText {
    /// The parameters of `pdu`, a discovery request or a response to `request`, in GATT terms;
    /// nil when the PDU is not one (its own description is then used).
    ///
    /// - Read By Group Type Response to a service search: "0x0001..0x0005 1800 (GAP), ...".
    /// - Read By Type Response to a characteristic search: "0x0002 [read] value 0x0003 2A00 (Device Name), ...".
    /// - Read By Type Response to an include search: "0x0011 include 0x0020..0x0025 180F (Battery)".
    /// - Find By Type Value Request for a service: "0x0001..0xffff type 2800 (Primary Service) value 180D (Heart Rate)".
    static func parameters(of pdu: ATTPDU, answering request: ATTPDU?) -> String? {
        switch (pdu, request) {
        case let (.readByGroupTypeResponse(r), .readByGroupTypeRequest(q)?)
            where q.attributeGroupType == GATTAttributeType.primaryService || q.attributeGroupType == GATTAttributeType.secondaryService:
            return r.attributeData.map { d in
                "\(hex(d.handle))..\(hex(d.endGroupHandle)) \(uuid(d.value))"
            }.joined(separator: ", ")
        case let (.readByTypeResponse(r), .readByTypeRequest(q)?) where q.attributeType == GATTAttributeType.characteristic:
            return r.attributeData.map { d in
                guard let c = try? GATTCharacteristicDeclaration(decoding: d.value) else { return "\(hex(d.handle)) \(Hex.encode(d.value))" }
                return "\(hex(d.handle)) [\(ReconstructedGATTTable.propertyNames(c.properties.rawValue))] value \(hex(c.valueHandle)) \(c.uuid.descriptionWithName)"
            }.joined(separator: ", ")
        case let (.readByTypeResponse(r), .readByTypeRequest(q)?) where q.attributeType == GATTAttributeType.include:
            return r.attributeData.map { d in
                guard let i = try? GATTIncludeDeclaration(decoding: d.value) else { return "\(hex(d.handle)) \(Hex.encode(d.value))" }
                return "\(hex(d.handle)) include \(hex(i.includedServiceHandle))..\(hex(i.endGroupHandle))"
                    + (i.serviceUUID.map { " " + $0.descriptionWithName } ?? "")
            }.joined(separator: ", ")
        case let (.findByTypeValueRequest(q), _) where q.attributeTypeUUID == GATTAttributeType.primaryService || q.attributeTypeUUID == GATTAttributeType.secondaryService:
            return "\(hex(q.startingHandle))..\(hex(q.endingHandle)) type \(q.attributeTypeUUID.descriptionWithName) value \(uuid(q.attributeValue))"
        default:
            return nil
        }
    }

    static func hex(_ v: UInt16) -> String { Hex.hex16(v) }

    /// A service declaration's UUID (Part G, 3.1) with its SIG name; the octets themselves when
    /// they are not one.
    static func uuid(_ octets: [UInt8]) -> String {
        (try? GATTServiceDeclaration(decoding: octets).uuid).map(\.descriptionWithName) ?? Hex.encode(octets)
    }
}
