/// Why an ``ATTEngine`` operation failed (Core v5.4, Vol 3, Part F, 3.3).
///
/// A peer's ATT_ERROR_RSP is not an ``ATTError``: ``ATTEngine/request(_:)`` returns it as
/// ``ATTPDU/errorResponse(_:)``, because it is a valid answer that the GATT layer interprets.
public enum ATTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request or indication went unanswered for the transaction timeout (30 s, Part F,
    /// 3.3.3). The transaction failed and the engine closed the bearer: no further ATT PDU is
    /// sent on it.
    case timeout
    /// The bearer is closed (by this end, by the peer, after a timeout, or before the call).
    case closed
    /// The PDU is longer than the ATT_MTU in effect, in octets. Nothing was sent: a PDU is
    /// never truncated by the engine.
    case pduTooLarge(size: Int, mtu: Int)
    /// ``ATTEngine/exchangeMTU()`` (or an ATT_EXCHANGE_MTU_REQ through
    /// ``ATTEngine/request(_:)``) was already used on this bearer: a client sends that request
    /// only once per connection (Part F, 3.4.2.1).
    case mtuAlreadyExchanged
    /// The peer answered the outstanding request with a PDU that does not answer it: another
    /// response opcode, or ATT_ERROR_RSP naming another request.
    case unexpectedResponse(ATTPDU)
    /// The peer's response to the outstanding request did not decode.
    case invalidPDU(ATTDecodingError)
    /// The peer's response to the outstanding request was `size` octets, longer than the
    /// ATT_MTU in effect (`mtu` octets), the largest PDU either side may send (Part F, 3.2.8).
    case responseTooLarge(size: Int, mtu: Int)
    /// The PDU's type does not fit the call: ``ATTEngine/request(_:)`` takes requests (and
    /// undefined opcodes whose Command Flag is clear), ``ATTEngine/send(_:)`` takes commands
    /// and notifications. Responses and confirmations are the engine's to send.
    case wrongPDUKind(ATTOpcode)

    /// One line: "the ATT transaction timed out; the bearer is closed", "PDU of 24 octets exceeds ATT_MTU 23", ...
    public var description: String {
        switch self {
        case .timeout: return "the ATT transaction timed out; the bearer is closed"
        case .closed: return "the ATT bearer is closed"
        case .pduTooLarge(let size, let mtu): return "PDU of \(size) octets exceeds ATT_MTU \(mtu)"
        case .mtuAlreadyExchanged: return "the ATT_MTU was already exchanged on this bearer"
        case .unexpectedResponse(let pdu): return "unexpected response: \(pdu)"
        case .invalidPDU(let error): return "invalid response: \(error)"
        case .responseTooLarge(let size, let mtu): return "response of \(size) octets exceeds ATT_MTU \(mtu)"
        case .wrongPDUKind(let opcode): return "\(opcode) (\(opcode.kind)) cannot be sent this way"
        }
    }
}
