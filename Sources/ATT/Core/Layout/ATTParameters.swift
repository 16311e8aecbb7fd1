/// Every parameter of the ATT PDUs (Core v5.4, Vol 3, Part F, 3.4), each declared once with the
/// specification's name and, where the stack prints a shorter one, that name. PDU layouts refer
/// to these; nothing else spells a parameter's name. (Each is built where it is used, from
/// constants the compiler folds, so a decoder pays nothing for the names it does not print.)
extension ATTParameter {
    // MARK: Handles

    /// Attribute Handle (3.4.4.3 and others): the attribute a PDU reads, writes or notifies, or a
    /// listed attribute. Printed "handle".
    static var attributeHandle: ATTParameter { ATTParameter("Attribute Handle", as: "handle", isAttributeHandle: true) }
    /// Starting Handle (3.4.3.1, 3.4.3.3, 3.4.4.1, 3.4.4.9): the first handle of a range.
    static var startingHandle: ATTParameter { ATTParameter("Starting Handle", summary: .bare) }
    /// Ending Handle: the last handle of a range, printed after "..".
    static var endingHandle: ATTParameter { ATTParameter("Ending Handle", summary: .attached("..")) }
    /// Handle (3.4.3.2, Tables 3.10 and 3.11): the handle of a handle-UUID pair.
    static var handle: ATTParameter { ATTParameter("Handle") }
    /// Found Attribute Handle (3.4.3.4, Table 3.14).
    static var foundAttributeHandle: ATTParameter { ATTParameter("Found Attribute Handle", summary: .bare) }
    /// Group End Handle (3.4.3.4, Table 3.14), printed after "..".
    static var groupEndHandle: ATTParameter { ATTParameter("Group End Handle", summary: .attached("..")) }
    /// End Group Handle (3.4.4.10, Table 3.26), printed after "..".
    static var endGroupHandle: ATTParameter { ATTParameter("End Group Handle", summary: .attached("..")) }
    /// Set Of Handles (3.4.4.7, 3.4.4.11): two or more Attribute Handles. Printed "handles".
    static var setOfHandles: ATTParameter { ATTParameter("Set Of Handles", as: "handles", entryName: "attribute handles") }

    // MARK: Values

    /// Attribute Value (3.4.3.3, 3.4.4.4, 3.4.5.1 and others): octets never interpreted. Printed "value".
    static var attributeValue: ATTParameter { ATTParameter("Attribute Value", as: "value") }
    /// Part Attribute Value (3.4.4.6, 3.4.6.1, 3.4.6.2). Printed "value".
    static var partAttributeValue: ATTParameter { ATTParameter("Part Attribute Value", as: "value") }
    /// Value Offset (3.4.4.5, 3.4.6.1), in octets from the value's start. Printed "offset".
    static var valueOffset: ATTParameter { ATTParameter("Value Offset", as: "offset") }
    /// Set Of Values (3.4.4.8): values concatenated. Printed "values".
    static var setOfValues: ATTParameter { ATTParameter("Set Of Values", as: "values") }
    /// Value Length (3.4.4.12, 3.4.7.4), in octets; the value beside it shows it.
    static var valueLength: ATTParameter { ATTParameter("Value Length", summary: .hidden) }
    /// Length (3.4.4.2, 3.4.4.10): the size of one list entry, in octets; the entries show it.
    static var length: ATTParameter { ATTParameter("Length", summary: .hidden) }

    // MARK: Types

    /// Attribute Type (3.4.4.1: a 2- or 16-octet UUID; 3.4.3.3: a 16-bit UUID). Printed "type".
    static var attributeType: ATTParameter { ATTParameter("Attribute Type", as: "type") }
    /// Attribute Group Type (3.4.4.9): a 2- or 16-octet UUID. Printed "type".
    static var attributeGroupType: ATTParameter { ATTParameter("Attribute Group Type", as: "type") }
    /// UUID (3.4.3.2, Tables 3.10 and 3.11): the type of a handle-UUID pair.
    static var uuid: ATTParameter { ATTParameter("UUID") }
    /// Format (3.4.3.2, Table 3.9): the width of the UUIDs that follow, printed "16-bit" or "128-bit".
    static var format: ATTParameter { ATTParameter("Format", summary: .bare) }

    // MARK: Lists

    /// Information Data (3.4.3.2): handle-UUID pairs. Printed "information".
    static var informationData: ATTParameter { ATTParameter("Information Data", as: "information", summary: .bare,
                                              entryName: "handle-UUID pairs") }
    /// Handles Information List (3.4.3.4).
    static var handlesInformationList: ATTParameter { ATTParameter("Handles Information List", as: "handles information",
                                                     summary: .bare, entryName: "Handles Information") }
    /// Attribute Data List (3.4.4.2, 3.4.4.10).
    static var attributeDataList: ATTParameter { ATTParameter("Attribute Data List", as: "attribute data", summary: .bare,
                                                entryName: "Attribute Data") }
    /// Length Value Tuple List (3.4.4.12).
    static var lengthValueTupleList: ATTParameter { ATTParameter("Length Value Tuple List", as: "length value tuples",
                                                   summary: .bare) }
    /// Handle Length Value Tuple List (3.4.7.4).
    static var handleLengthValueTupleList: ATTParameter { ATTParameter("Handle Length Value Tuple List",
                                                         as: "handle length value tuples", summary: .bare) }

    // MARK: Errors, MTU, queued writes, signatures

    /// Request Opcode In Error (3.4.1.1), printed by the request's name (also the field "request").
    static var requestOpcodeInError: ATTParameter { ATTParameter("Request Opcode In Error", as: "request opcode", summary: .bare,
                                                   nameKey: "request") }
    /// Attribute Handle In Error (3.4.1.1). Printed "handle".
    static var attributeHandleInError: ATTParameter { ATTParameter("Attribute Handle In Error", as: "handle") }
    /// Error Code (3.4.1.1, Table 3.4), printed after ": " by name (also the field "error").
    static var errorCode: ATTParameter { ATTParameter("Error Code", summary: .attached(": "), nameKey: "error") }
    /// Client Rx MTU (3.4.2.1), in octets.
    static var clientRxMTU: ATTParameter { ATTParameter("Client Rx MTU") }
    /// Server Rx MTU (3.4.2.2), in octets.
    static var serverRxMTU: ATTParameter { ATTParameter("Server Rx MTU") }
    /// Flags (3.4.6.3, Table 3.36), printed as what they do (also the field "action").
    static var flags: ATTParameter { ATTParameter("Flags", summary: .bare, nameKey: "action") }
    /// Authentication Signature (3.3.1): SignCounter and MAC, 12 octets.
    static var authenticationSignature: ATTParameter { ATTParameter("Authentication Signature", summary: .bare) }
    /// SignCounter (Vol 3, Part H, 2.4.5). Printed "sign counter".
    static var signCounter: ATTParameter { ATTParameter("SignCounter", as: "sign counter") }
    /// MAC (Vol 3, Part H, 2.4.5), printed as its octets in transmission order.
    static var mac: ATTParameter { ATTParameter("MAC") }
}
