import ATT

/// The Attribute Protocol's error codes, named as Core Bluetooth's `CBATTError.Code` names
/// them: `ATTError.Code.readNotPermitted`, `.writeNotPermitted`, `.invalidOffset`,
/// `.invalidAttributeValueLength`, `.insufficientAuthentication`, ... (Core v5.4, Vol 3, Part F,
/// 3.4.1.1, Table 3.4), plus ``ATTErrorCode/success`` (0x00) for a peripheral's answer that
/// grants a request.
///
/// ```swift
/// do { _ = try await peripheral.readValue(for: characteristic) }
/// catch BLEError.att(.readNotPermitted, let handle) { print("not readable at \(handle)") }
/// ```
///
/// A namespace, not a thrown error: a peer's ATT_ERROR_RSP reaches the caller as
/// ``BLEError/att(_:handle:)``.
public enum ATTError {
    /// One Error Code octet; every value is kept raw, Application Errors (0x80...0x9F) and the
    /// Common Profile and Service Error Codes (0xE0...0xFF) included.
    public typealias Code = ATTErrorCode
}

extension ATTErrorCode {
    /// 0x00: the request is granted. Not an error code on the wire (ATT_ERROR_RSP never
    /// carries it); a peripheral manager answers with it to send the request's response.
    public static let success = ATTErrorCode(rawValue: 0x00)
}
