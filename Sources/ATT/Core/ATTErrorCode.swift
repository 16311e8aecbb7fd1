import BLECore

/// The Error Code parameter of ATT_ERROR_RSP (Core v5.4, Vol 3, Part F, 3.4.1.1, Table 3.4),
/// with the Common Profile and Service Error Codes of the Core Specification Supplement, Part B.
///
/// | Range | Meaning |
/// |---|---|
/// | 0x01...0x13 | Attribute Protocol errors (constants below) |
/// | 0x80...0x9F | Application Error, defined by a higher layer specification |
/// | 0xE0...0xFF | Common Profile and Service Error Codes (0xFC...0xFF defined; 0xE0...0xFB reserved) |
/// | all others | Reserved for future use |
///
/// Every value is kept raw. A client that receives a code it does not understand still
/// treats the request as failed "for an unknown reason" (3.4.1.1). It is an `Error`, so a
/// dynamic attribute's handler can throw the exact code the server sends: `throws(ATTErrorCode)`.
public struct ATTErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Error {
    /// The Error Code octet as transmitted.
    public let rawValue: UInt8

    /// An error code from its octet; every value is accepted and kept.
    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    // MARK: Attribute Protocol (Table 3.4)

    /// 0x01: the attribute handle given was not valid on this server.
    public static let invalidHandle = ATTErrorCode(rawValue: 0x01)
    /// 0x02: the attribute cannot be read.
    public static let readNotPermitted = ATTErrorCode(rawValue: 0x02)
    /// 0x03: the attribute cannot be written.
    public static let writeNotPermitted = ATTErrorCode(rawValue: 0x03)
    /// 0x04: the attribute PDU was invalid (for example, the wrong length, 3.3).
    public static let invalidPDU = ATTErrorCode(rawValue: 0x04)
    /// 0x05: the attribute requires authentication before it can be read or written.
    public static let insufficientAuthentication = ATTErrorCode(rawValue: 0x05)
    /// 0x06: the server does not support the request received from the client.
    public static let requestNotSupported = ATTErrorCode(rawValue: 0x06)
    /// 0x07: the offset specified was past the end of the attribute.
    public static let invalidOffset = ATTErrorCode(rawValue: 0x07)
    /// 0x08: the attribute requires authorization before it can be read or written.
    public static let insufficientAuthorization = ATTErrorCode(rawValue: 0x08)
    /// 0x09: too many prepare writes have been queued.
    public static let prepareQueueFull = ATTErrorCode(rawValue: 0x09)
    /// 0x0A: no attribute found within the given attribute handle range.
    public static let attributeNotFound = ATTErrorCode(rawValue: 0x0A)
    /// 0x0B: the attribute cannot be read using ATT_READ_BLOB_REQ.
    public static let attributeNotLong = ATTErrorCode(rawValue: 0x0B)
    /// 0x0C: the encryption key size used for encrypting this link is too short (formerly
    /// named "Insufficient Encryption Key Size").
    public static let encryptionKeySizeTooShort = ATTErrorCode(rawValue: 0x0C)
    /// 0x0D: the attribute value length is invalid for the operation.
    public static let invalidAttributeValueLength = ATTErrorCode(rawValue: 0x0D)
    /// 0x0E: the request encountered an error that was unlikely, and could not be completed.
    public static let unlikelyError = ATTErrorCode(rawValue: 0x0E)
    /// 0x0F: the attribute requires encryption before it can be read or written.
    public static let insufficientEncryption = ATTErrorCode(rawValue: 0x0F)
    /// 0x10: the attribute type is not a supported grouping attribute.
    public static let unsupportedGroupType = ATTErrorCode(rawValue: 0x10)
    /// 0x11: insufficient resources to complete the request.
    public static let insufficientResources = ATTErrorCode(rawValue: 0x11)
    /// 0x12: the server requests the client to rediscover the database.
    public static let databaseOutOfSync = ATTErrorCode(rawValue: 0x12)
    /// 0x13: the attribute parameter value was not allowed.
    public static let valueNotAllowed = ATTErrorCode(rawValue: 0x13)

    // MARK: Common Profile and Service Error Codes (Core Specification Supplement, Part B)

    /// 0xFC: a requested write operation cannot be fulfilled for reasons other than permissions.
    public static let writeRequestRejected = ATTErrorCode(rawValue: 0xFC)
    /// 0xFD: a Client Characteristic Configuration descriptor is not configured according to
    /// the requirements of the profile or service.
    public static let cccdImproperlyConfigured = ATTErrorCode(rawValue: 0xFD)
    /// 0xFE: a profile or service request cannot be serviced because an operation that was
    /// previously triggered is still in progress.
    public static let procedureAlreadyInProgress = ATTErrorCode(rawValue: 0xFE)
    /// 0xFF: an attribute value is out of range as defined by a profile or service specification.
    public static let outOfRange = ATTErrorCode(rawValue: 0xFF)

    /// The Application Error range, 0x80...0x9F, whose meanings a higher layer specification defines.
    public static let applicationErrorRange: ClosedRange<UInt8> = 0x80...0x9F
    /// The Common Profile and Service Error Codes range, 0xE0...0xFF (Core Specification Supplement, Part B).
    public static let commonProfileAndServiceErrorRange: ClosedRange<UInt8> = 0xE0...0xFF

    /// An Application Error code (0x80...0x9F).
    ///
    /// - Returns: nil when `rawValue` lies outside 0x80...0x9F.
    public static func applicationError(_ rawValue: UInt8) -> ATTErrorCode? {
        applicationErrorRange.contains(rawValue) ? ATTErrorCode(rawValue: rawValue) : nil
    }

    /// Where a code sits in Table 3.4.
    public enum Category: Hashable, Sendable, CaseIterable {
        /// 0x01...0x13: defined by the Attribute Protocol.
        case attributeProtocol
        /// 0x80...0x9F: Application Error.
        case application
        /// 0xFC...0xFF: Common Profile and Service Error Codes defined by the CSS.
        case commonProfileAndService
        /// Every other value, including 0x00, 0x14...0x7F, 0xA0...0xDF and 0xE0...0xFB.
        case reserved
    }

    /// The range of Table 3.4 (or the CSS) this code belongs to.
    public var category: Category {
        switch rawValue {
        case 0x01...0x13: return .attributeProtocol
        case Self.applicationErrorRange: return .application
        case 0xFC...0xFF: return .commonProfileAndService
        default: return .reserved
        }
    }

    /// Whether the value is reserved for future use (neither defined nor in the Application
    /// Error range).
    public var isReserved: Bool { category == .reserved }

    /// The specification's name: "Insufficient Authentication"; "Application Error" for
    /// 0x80...0x9F; "Reserved for future use" for reserved values (including 0xE0...0xFB,
    /// which the CSS reserves inside the Common Profile and Service range).
    public var name: String {
        switch rawValue {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Encryption Key Size Too Short"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x12: return "Database Out Of Sync"
        case 0x13: return "Value Not Allowed"
        case 0x80...0x9F: return "Application Error"
        case 0xFC: return "Write Request Rejected"
        case 0xFD: return "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: return "Procedure Already in Progress"
        case 0xFF: return "Out of Range"
        default: return "Reserved for future use"
        }
    }

    /// ``name`` and the value: "Insufficient Authentication (0x05)", "Application Error (0x80)",
    /// "Reserved for future use (0x14)".
    public var description: String {
        name + " (0x" + Hex.encode(CollectionOfOne(rawValue)) + ")"
    }
}
