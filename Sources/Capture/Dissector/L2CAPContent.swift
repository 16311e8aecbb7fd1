import ATT
import BLECore
import L2CAP
import SMP

/// What one complete L2CAP basic frame carries, decoded by its channel (Core v5.4, Vol 3,
/// Part A, 2.1): ATT on CID 0x0004, LE signaling on 0x0005, SMP on 0x0006; anything else raw.
///
/// A malformed PDU keeps its octets and the decoder's error, so the packet still prints and
/// counts (an ATT PDU counts under its opcode even when its parameters are malformed, as in
/// tshark).
public enum L2CAPContent: Sendable {
    /// An ATT PDU. `annotation` names the handles it mentions, from the GATT discovery seen so
    /// far on the same link; `request` is the request a response answers, when the capture holds it.
    case att(ATTPDU, annotation: ATTAnnotation)
    /// Octets on the ATT channel that do not decode; the opcode is the first octet, if any.
    case attMalformed(payload: [UInt8], error: ATTDecodingError)
    /// An SMP command (Core v5.4, Vol 3, Part H, 3).
    case smp(SMPPDU)
    /// Octets on the SMP channel that do not decode.
    case smpMalformed(payload: [UInt8], error: SMPDecodingError)
    /// An LE signaling packet and its command (Core v5.4, Vol 3, Part A, 4).
    case signaling(LESignalingPacket, LESignalingCommand)
    /// Octets on the LE signaling channel that do not decode.
    case signalingMalformed(payload: [UInt8], error: L2CAPSignalingError)
    /// A frame on any other channel, kept raw.
    case other(channelID: L2CAPChannelID, payload: [UInt8])

    /// Decodes `frame`'s payload by its channel. ATT annotation is left empty; the dissector
    /// fills it from its per-link GATT knowledge.
    public static func decode(_ frame: L2CAPBasicFrame) -> L2CAPContent {
        switch frame.channelID {
        case .att:
            do { return .att(try ATTPDU.decode(frame.payload), annotation: ATTAnnotation()) } catch {
                return .attMalformed(payload: frame.payload, error: error)
            }
        case .smp:
            do { return .smp(try SMPPDU(decoding: frame.payload)) } catch {
                return .smpMalformed(payload: frame.payload, error: error)
            }
        case .leSignaling:
            do {
                let packet = try LESignalingPacket(decoding: frame.payload)
                return .signaling(packet, try packet.command())
            } catch {
                return .signalingMalformed(payload: frame.payload, error: error)
            }
        default:
            return .other(channelID: frame.channelID, payload: frame.payload)
        }
    }

    /// The ATT opcode octet when this is an ATT frame with at least one octet, malformed or not.
    public var attOpcode: ATTOpcode? {
        switch self {
        case .att(let pdu, _): return pdu.opcode
        case .attMalformed(let payload, _): return payload.first.map(ATTOpcode.init(rawValue:))
        default: return nil
        }
    }

    /// Whether the frame's payload failed to decode.
    public var isMalformed: Bool {
        switch self {
        case .attMalformed, .smpMalformed, .signalingMalformed: return true
        default: return false
        }
    }

    /// One line: "ATT Write Request handle 0x0012 (Heart Rate Control Point) value 01",
    /// "SMP Pairing Request ...", "L2CAP signaling ...", or the malformed PDU's reason.
    public var summary: String {
        switch self {
        case let .att(pdu, annotation):
            if let discovery = annotation.discovery { return "ATT \(pdu.opcode.name) \(discovery)" }
            return "ATT " + annotation.annotate(pdu.description)
        case let .attMalformed(payload, error):
            return "ATT malformed (\(payload.count) octets): \(error)"
        case .smp(let pdu):
            return "SMP \(pdu)"
        case let .smpMalformed(payload, error):
            return "SMP malformed (\(payload.count) octets): \(error)"
        case let .signaling(packet, command):
            return "L2CAP signaling id \(packet.identifier): \(command)"
        case let .signalingMalformed(payload, error):
            return "L2CAP signaling malformed (\(payload.count) octets): \(error)"
        case let .other(channelID, payload):
            return "L2CAP \(channelID) \(payload.count) octets"
        }
    }
}

/// GATT meaning for the handles of one ATT PDU, learned from discovery earlier in the capture.
public struct ATTAnnotation: Sendable, Equatable {
    /// Handle to what it is ("Heart Rate Control Point").
    public var handleNames: [UInt16: String] = [:]
    /// For a response: the request it answers, when the capture holds it.
    public var request: ATTPDU?
    /// The value as text, when the attribute is one whose value is a UTF-8 string (Device Name,
    /// the Device Information strings, Characteristic User Description) and it decodes as one.
    public var valueText: String?
    /// The PDU's parameters in GATT terms when it is discovery (UUIDs and declarations decoded,
    /// see `DiscoveryText`); nil to use the ATT description.
    public var discovery: String?

    public init(handleNames: [UInt16: String] = [:], request: ATTPDU? = nil, valueText: String? = nil) {
        self.handleNames = handleNames
        self.request = request
        self.valueText = valueText
    }

    /// `text` with " (name)" after each "handle 0xNNNN" whose handle has a name, and the request's
    /// handle named after a response when it is a read: "Read Response value 54 65 (of 0x0003 Device Name)".
    func annotate(_ text: String) -> String {
        var out = text
        if let valueText { out += " " + CaptureText.quoted(valueText) }
        guard !handleNames.isEmpty else { return out }
        for (handle, name) in handleNames.sorted(by: { $0.key < $1.key }) {
            let token = "handle " + Hex.hex16(handle)
            if let range = Self.firstRange(of: token, in: out) {
                out.replaceSubrange(range, with: token + " (\(name))")
            } else if request != nil {
                out += " (of \(Hex.hex16(handle)) \(name))"
            }
        }
        return out
    }

    /// `text.firstRange(of: token)` for an ASCII `token`, found by comparing octets: the first
    /// match whose ends are character boundaries is the first match of the characters (no other
    /// character is canonically equivalent to ASCII letters, digits or the space). A match that
    /// cuts a character (a combining mark after it, in a hostile value) goes to the character search.
    static func firstRange(of token: String, in text: String) -> Range<String.Index>? {
        let pattern = Array(token.utf8)
        let utf8 = text.utf8
        guard let head = pattern.first, utf8.count >= pattern.count else { return nil }
        var from = utf8.startIndex
        while let start = utf8[from...].firstIndex(of: head) {
            guard let end = utf8.index(start, offsetBy: pattern.count, limitedBy: utf8.endIndex) else { return nil }
            if utf8[start..<end].elementsEqual(pattern) {
                guard start.samePosition(in: text) != nil, end.samePosition(in: text) != nil else {
                    return text.firstRange(of: token)
                }
                return start..<end
            }
            from = utf8.index(after: start)
        }
        return nil
    }
}
