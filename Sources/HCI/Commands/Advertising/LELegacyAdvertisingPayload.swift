import BLECore

/// The 31-octet significant part of legacy advertising and scan response data.
enum LELegacyAdvertisingPayload {
    /// The octets of the fixed-length Advertising_Data and Scan_Response_Data fields
    /// (Core v5.4, Vol 4, Part E, 7.8.7 and 7.8.8).
    static let fieldLength = 31
}

extension HCIParameterCoder {
    /// A length octet (0...31), then a 31-octet field whose first `length` octets are
    /// significant, as in HCI_LE_Set_Advertising_Data and HCI_LE_Set_Scan_Response_Data.
    ///
    /// Decoding puts the significant octets in `data` and the rest in `padding`, which stays
    /// empty when they are all zero (as the specification has hosts send them). Encoding writes
    /// `data`, then `padding`, then zeros up to 31 octets; `data` longer than 31 octets is
    /// written whole (the controller will reject it), never cut.
    mutating func code(legacyAdvertisingData data: inout [UInt8], padding: inout [UInt8],
                       lengthField: String, _ field: String) throws(Failure) {
        let lengthOffset = offset
        var length = UInt8(truncatingIfNeeded: data.count)
        try code(&length, lengthField)
        try check(Int(length) <= LELegacyAdvertisingPayload.fieldLength, lengthField, offset: lengthOffset,
                  "\(length) exceeds the \(LELegacyAdvertisingPayload.fieldLength)-octet field")
        try code(&data, count: Int(length), field)
        let unused = Swift.max(0, LELegacyAdvertisingPayload.fieldLength - Int(length))
        var rest = isDecoding ? [] : Array((padding + Array(repeating: 0, count: unused)).prefix(unused))
        try code(&rest, count: unused, field)
        if isDecoding { padding = rest.allSatisfy { $0 == 0 } ? [] : rest }
    }
}
