import BLECore

/// A command whose only field is one 128-bit value: Pairing Confirm (0x03, field "Confirm
/// Value"), Pairing Random (0x04, "Random Value"), Pairing DHKey Check (0x0D, "DHKey Check"),
/// Encryption Information (0x06, "Long Term Key"), Identity Information (0x08, "Identity
/// Resolving Key") and Signing Information (0x0A, "Signature Key")
/// (Core v5.4, Vol 3, Part H, 3.5.3, 3.5.4, 3.5.7, 3.6.2, 3.6.4, 3.6.6).
///
/// Layout after the Code: the value, 16 octets in transmission order.
struct SMPSingleValue: SMPCommandLayout {
    /// The field's name in the specification.
    var fieldName: String
    var value: SMPValue128

    init() { self.init(fieldName: "", value: .zero) }
    init(fieldName: String, value: SMPValue128) {
        self.fieldName = fieldName
        self.value = value
    }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&value, fieldName)
    }
}

/// A command whose only field is one raw-valued octet: Pairing Failed (0x05, "Reason"),
/// Security Request (0x0B, "AuthReq"), Pairing Keypress Notification (0x0E, "Notification Type")
/// (Core v5.4, Vol 3, Part H, 3.5.5, 3.6.7, 3.5.8).
struct SMPSingleOctet<Value: RawFieldValue & Sendable>: SMPCommandLayout {
    /// The field's name in the specification.
    var fieldName: String
    var value: Value

    init() { self.init(fieldName: "", value: Value(rawValue: 0)) }
    init(fieldName: String, value: Value) {
        self.fieldName = fieldName
        self.value = value
    }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&value, fieldName)
    }
}
