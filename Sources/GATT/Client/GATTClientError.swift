import ATT
import BLECore

/// Why a ``GATTClient`` procedure failed (Core v5.4, Vol 3, Part G, 4).
///
/// | Case | Meaning |
/// |---|---|
/// | ``errorResponse(request:handle:code:)`` | the server answered with ATT_ERROR_RSP (Part F, 3.4.1.1) |
/// | ``timeout`` | 30 s without a response: the bearer is closed (Part F, 3.3.3) |
/// | ``closed`` | the bearer closed before or during the procedure |
/// | ``protocolViolation(_:)`` | the server's answer breaks a rule: malformed, out of range, non-advancing |
/// | ``prepareWriteMismatch(sent:received:)`` | a Prepare Write Response did not echo its request; the queue was cancelled (4.9.4, 4.9.5) |
/// | others | a call the client refused before sending anything |
///
/// An Attribute Not Found that ends a discovery loop is not an error: it is how the server
/// says the loop is done (4.4.1).
public enum GATTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered `request` with ATT_ERROR_RSP: Attribute Handle In Error `handle` and
    /// Error Code `code` (kept raw; Application Errors 0x80...0x9F included).
    case errorResponse(request: ATTOpcode, handle: UInt16, code: ATTErrorCode)
    /// A request went unanswered for the transaction timeout (30 s); the ATT engine closed the
    /// bearer, so the connection carries no more ATT.
    case timeout
    /// The bearer is closed: by this end, by the peer, or after a timeout.
    case closed
    /// The PDU the procedure needs is longer than ATT_MTU, in octets (a value too long for a
    /// Write Request or Write Command, too many handles for a Read Multiple). Nothing was sent.
    case pduTooLarge(size: Int, mtu: Int)
    /// ``GATTClient/exchangeMTU()`` was already used on this bearer (Part G, 4.3.1: once per connection).
    case mtuAlreadyExchanged
    /// The server's answer breaks the protocol; see ``ProtocolViolation``.
    case protocolViolation(ProtocolViolation)
    /// A Prepare Write Response did not echo its request: the Attribute Handle, Value Offset
    /// and Part Attribute Value must come back unchanged (Part F, 3.4.6.2; the reliable-write
    /// check of Part G, 4.9.5, which write long applies too). The client cancelled the queue
    /// with ATT_EXECUTE_WRITE_REQ Flags 0x00, so nothing was written.
    case prepareWriteMismatch(sent: ATTPrepareWriteRequest, received: ATTPrepareWriteResponse)
    /// The characteristic at `valueHandle` has neither the Notify nor the Indicate property
    /// that the subscription asked for (Part G, 3.3.1.1).
    case notificationsNotSupported(valueHandle: UInt16)
    /// No Client Characteristic Configuration descriptor was found for the characteristic at
    /// `valueHandle` (Part G, 3.3.3.3), so it cannot be subscribed to.
    case noClientCharacteristicConfiguration(valueHandle: UInt16)
    /// A signed write was asked for without a CSRK (``GATTClient/setSigningKey(_:signCounter:)``).
    case noSigningKey
    /// The SignCounter reached 0xFFFFFFFF: no further message can be signed with this CSRK
    /// (Vol 3, Part H, 2.4.5); pair again for a new key.
    case signCounterExhausted
    /// libcrypto could not compute the AES-CMAC of a signed write.
    case signingFailed
    /// The server's database changed under the request: after a Database Out Of Sync error
    /// (0x12) the client rediscovered the server and `handle` no longer designates what it did,
    /// so the request was not repeated (Part G, 2.5.2.1); or a Service Changed range (7.1) took
    /// in the Client Characteristic Configuration at `handle` while a subscription's write to
    /// it was on its way (the subscription ends: its characteristic may be gone).
    case databaseChanged(handle: UInt16)
    /// The call itself is invalid (for example a Read Multiple with fewer than two handles);
    /// `reason` says why. Nothing was sent.
    case invalidArgument(String)

    /// How a server's answer broke the protocol. Each names what was wrong and where.
    public enum ProtocolViolation: Hashable, Sendable, CustomStringConvertible {
        /// The response did not decode (the field and offset are in the error).
        case malformedResponse(ATTDecodingError)
        /// The response does not answer the request: another opcode, or ATT_ERROR_RSP naming
        /// another request.
        case unexpectedResponse(ATTPDU)
        /// An attribute value GATT defines (a service, include or characteristic declaration,
        /// Service Changed, Database Hash) at `handle` is malformed; the error names the field
        /// and its offset within the value.
        case malformedValue(handle: UInt16, BLEDecodingError)
        /// A discovery response to `request` listed `handle`, which lies outside `expected`:
        /// before the requested Starting Handle, after its Ending Handle, or not after the
        /// previous entry. Following it would make the loop repeat or go back, so the
        /// procedure stops (a server must list handles in ascending order, Part F, 3.4.3 and 3.4.4).
        case handleOutOfRange(request: ATTOpcode, handle: UInt16, expected: ClosedRange<UInt16>)
        /// A value read in parts grew past `limit` octets (512, the longest attribute value,
        /// Part F, 3.2.9); the server keeps answering Read Blob Requests.
        case valueTooLong(handle: UInt16, limit: Int)
        /// A Read Multiple Variable Response carried `received` values for `requested` handles.
        case tooManyValues(requested: Int, received: Int)
        /// The response was `size` octets, longer than the ATT_MTU in effect (`mtu` octets),
        /// which bounds every PDU (Part F, 3.2.8).
        case responseTooLarge(size: Int, mtu: Int)

        /// One line naming the violation.
        public var description: String {
            switch self {
            case .malformedResponse(let error): return "malformed response: \(error)"
            case .unexpectedResponse(let pdu): return "unexpected response: \(pdu)"
            case .malformedValue(let handle, let error):
                return "malformed value at handle \(Hex.hex16(handle)): \(error)"
            case .handleOutOfRange(let request, let handle, let expected):
                return "\(request.name) answered with handle \(Hex.hex16(handle)), outside "
                    + "\(Hex.hex16(expected.lowerBound))...\(Hex.hex16(expected.upperBound))"
            case .valueTooLong(let handle, let limit):
                return "the value at handle \(Hex.hex16(handle)) grew past \(limit) octets"
            case .tooManyValues(let requested, let received):
                return "\(received) values for \(requested) handles"
            case .responseTooLarge(let size, let mtu):
                return "a response of \(size) octets exceeds ATT_MTU \(mtu)"
            }
        }
    }

    /// The ATT Error Code when the server answered with ATT_ERROR_RSP; nil otherwise.
    public var attErrorCode: ATTErrorCode? {
        if case .errorResponse(_, _, let code) = self { return code }
        return nil
    }

    /// The error for the server's ATT_ERROR_RSP `response`.
    public init(_ response: ATTErrorResponse) {
        self = .errorResponse(request: response.requestOpcodeInError, handle: response.attributeHandleInError,
                              code: response.errorCode)
    }

    /// The error for an ATT engine failure.
    public init(_ error: ATTError) {
        switch error {
        case .timeout: self = .timeout
        case .closed: self = .closed
        case .pduTooLarge(let size, let mtu): self = .pduTooLarge(size: size, mtu: mtu)
        case .mtuAlreadyExchanged: self = .mtuAlreadyExchanged
        case .unexpectedResponse(let pdu): self = .protocolViolation(.unexpectedResponse(pdu))
        case .invalidPDU(let decoding): self = .protocolViolation(.malformedResponse(decoding))
        case .responseTooLarge(let size, let mtu): self = .protocolViolation(.responseTooLarge(size: size, mtu: mtu))
        case .wrongPDUKind(let opcode): self = .invalidArgument("\(opcode.name) cannot be sent as a request")
        }
    }

    /// One line: "Read Request handle 0x0003: Read Not Permitted (0x02)", "the ATT transaction timed out", ...
    public var description: String {
        switch self {
        case .errorResponse(let request, let handle, let code):
            return "\(request.name) handle \(Hex.hex16(handle)): \(code)"
        case .timeout: return "the ATT transaction timed out; the bearer is closed"
        case .closed: return "the ATT bearer is closed"
        case .pduTooLarge(let size, let mtu): return "PDU of \(size) octets exceeds ATT_MTU \(mtu)"
        case .mtuAlreadyExchanged: return "the ATT_MTU was already exchanged on this bearer"
        case .protocolViolation(let violation): return "protocol violation: \(violation)"
        case .prepareWriteMismatch(let sent, let received):
            return "prepared write: \(received) does not echo \(sent); the queue was cancelled"
        case .notificationsNotSupported(let handle):
            return "the characteristic at \(Hex.hex16(handle)) cannot notify or indicate as asked"
        case .noClientCharacteristicConfiguration(let handle):
            return "no Client Characteristic Configuration descriptor for the characteristic at \(Hex.hex16(handle))"
        case .noSigningKey: return "no CSRK for a signed write"
        case .signCounterExhausted: return "the SignCounter is exhausted"
        case .signingFailed: return "AES-CMAC failed"
        case .databaseChanged(let handle):
            return "the database changed: handle \(Hex.hex16(handle)) no longer designates the same attribute"
        case .invalidArgument(let reason): return "invalid argument: \(reason)"
        }
    }
}
