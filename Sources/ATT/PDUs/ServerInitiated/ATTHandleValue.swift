import BLECore

/// ATT_HANDLE_VALUE_NTF, opcode 0x1B (Core v5.4, Vol 3, Part F, 3.4.7.1): an attribute's
/// value, sent by the server at any time, unconfirmed.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x1B) | 2 octets | 0 to (ATT_MTU-3) octets |
///
/// A value longer than ATT_MTU-3 arrives cut to ATT_MTU-3; the rest is read with
/// ATT_READ_BLOB_REQ.
public struct ATTHandleValueNotification: ATTPDUCodable {
    /// Not answered.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .handleValueNotification, name: "Handle Value Notification", pduName: "ATT_HANDLE_VALUE_NTF",
        kind: .notification, case: ATTPDU.handleValueNotification)

    /// Attribute Handle: the attribute notified.
    public var handle: UInt16
    /// Attribute Value: its current value (or first part), octets as transmitted.
    public var value: [UInt8]

    /// A notification of `value` for the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

extension ATTHandleValueNotification: ATTPDUBody {
    init() { self.init(handle: 0, value: []) }

    /// "handle 0x002a value 0648".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue)
    }
}

/// ATT_HANDLE_VALUE_IND, opcode 0x1D (Core v5.4, Vol 3, Part F, 3.4.7.2): an attribute's
/// value, which the client confirms with ATT_HANDLE_VALUE_CFM.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x1D) | 2 octets | 0 to (ATT_MTU-3) octets |
///
/// Only one indication is outstanding per bearer; the client confirms even an indication
/// whose handle or value it finds invalid.
public struct ATTHandleValueIndication: ATTPDUCodable {
    /// Answered by ATT_HANDLE_VALUE_CFM.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .handleValueIndication, name: "Handle Value Indication", pduName: "ATT_HANDLE_VALUE_IND",
        kind: .indication, response: .handleValueConfirmation, case: ATTPDU.handleValueIndication)

    /// Attribute Handle: the attribute indicated.
    public var handle: UInt16
    /// Attribute Value: its current value (or first part), octets as transmitted.
    public var value: [UInt8]

    /// An indication of `value` for the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

extension ATTHandleValueIndication: ATTPDUBody {
    init() { self.init(handle: 0, value: []) }

    /// "handle 0x0003 value 0100ffff".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue)
    }
}

/// ATT_HANDLE_VALUE_CFM, opcode 0x1E (Core v5.4, Vol 3, Part F, 3.4.7.3): the client
/// received an indication.
///
/// | Attribute Opcode |
/// |---|
/// | 1 octet (0x1E) |
public struct ATTHandleValueConfirmation: ATTPDUCodable {
    /// Answers ATT_HANDLE_VALUE_IND.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .handleValueConfirmation, name: "Handle Value Confirmation", pduName: "ATT_HANDLE_VALUE_CFM",
        kind: .confirmation, case: ATTPDU.handleValueConfirmation)

    /// The confirmation; it has no parameters.
    public init() {}
}

extension ATTHandleValueConfirmation: ATTPDUBody {
    /// No parameters.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {}
}
