/// Walks the records of a ``CaptureFile``, one at a time, in file order.
///
/// ``next()`` returns each good record, then nil at the end of the file. When the framing
/// breaks (a truncated or absurd record or block, a bad trailer) it throws a
/// ``CaptureError`` with the file offset, after every record before that point was
/// returned; afterwards it returns nil. A malformed packet inside a well-framed record does
/// not stop the walk: it comes back as ``CapturedPacket/malformed(linkType:payload:error:)``.
/// Every call advances through the file, so the walk always ends.
public struct CaptureReader: Sendable {
    enum Parser: Sendable {
        case btsnoop(BTSnoopParser)
        case pcap(PcapParser)
        case pcapng(PcapNGParser)
        case packetLogger(PacketLoggerParser)
        case finished
    }

    let bytes: [UInt8]
    var parser: Parser
    /// The index the next record will have: the number of records returned so far.
    public private(set) var recordCount = 0

    init(bytes: [UInt8], parser: Parser) {
        self.bytes = bytes
        self.parser = parser
    }

    /// The next record; nil at the end of the file (and after an error was thrown).
    ///
    /// - Throws: ``CaptureError`` when the file's framing breaks at the current record.
    public mutating func next() throws(CaptureError) -> CaptureRecord? {
        let record: CaptureRecord?
        do {
            switch parser {
            case var .btsnoop(p):
                parser = .finished
                record = try p.next(bytes, index: recordCount)
                parser = .btsnoop(p)
            case var .pcap(p):
                parser = .finished
                record = try p.next(bytes, index: recordCount)
                parser = .pcap(p)
            case var .pcapng(p):
                parser = .finished   // releases the enum's copy so `p` mutates in place
                record = try p.next(bytes, index: recordCount)
                parser = .pcapng(p)
            case var .packetLogger(p):
                parser = .finished
                record = try p.next(bytes, index: recordCount)
                parser = .packetLogger(p)
            case .finished:
                return nil
            }
        } catch {
            parser = .finished
            throw error
        }
        if record == nil { parser = .finished } else { recordCount += 1 }
        return record
    }
}
