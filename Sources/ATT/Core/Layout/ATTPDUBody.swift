import BLECore

/// A PDU struct as ``ATTPDU`` handles it: its ``ATTLayout`` walked by each coder, through
/// requirements, so a PDU in an ``ATTPDU`` case runs code specialized for its own type.
/// Every PDU struct conforms; nothing here is declared per PDU but the layout.
protocol ATTPDUBody: ATTPDUCodable, ATTLayout {
    /// Reads the parameters from a decoder just after the opcode and wraps the PDU in its case.
    static func decodePDU(from decoder: inout ATTFieldDecoder) throws(BLEDecodingError) -> ATTPDU
    /// Appends the whole PDU: the opcode octet, then the parameters.
    func encodePDU(to writer: inout ByteWriter)
    /// The octets of the whole PDU.
    var pduLength: Int { get }
    /// The parameters on one line (``ATTFieldDescriber``).
    var summary: String { get }
    /// The parameters as named fields (``ATTFieldCollector``).
    var fieldList: [ATTField] { get }
    /// The Attribute Handles (``ATTHandleCollector``), looking into lists when `includesLists`.
    func attributeHandles(includesLists: Bool) -> [UInt16]
}

extension ATTPDUBody {
    static func decodePDU(from decoder: inout ATTFieldDecoder) throws(BLEDecodingError) -> ATTPDU {
        var pdu = Self()
        try pdu.layout(&decoder)
        return declaration.embed(pdu)
    }

    func encodePDU(to writer: inout ByteWriter) {
        writer.writeUInt8(Self.opcode.rawValue)
        // Move the buffer into the encoder and back, so appending does not copy it.
        var encoder = ATTFieldEncoder(writer: writer)
        writer = ByteWriter(capacity: 0)
        var copy = self
        copy.walk(&encoder)
        writer = encoder.writer
    }

    var pduLength: Int { 1 &+ ATTFieldCounter.count(self) }
    var summary: String { ATTFieldDescriber.summary(self) }
    var fieldList: [ATTField] { ATTFieldCollector.fields(self) }

    func attributeHandles(includesLists: Bool) -> [UInt16] {
        ATTHandleCollector.handles(of: self, includesLists: includesLists)
    }
}
