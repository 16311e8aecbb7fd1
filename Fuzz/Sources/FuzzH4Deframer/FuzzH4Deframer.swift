import BLECore
import FuzzSupport
import HCI

/// The H4 deframer and the H4 stream reader (Core v5.4, Vol 4, Part A, 2) on a stream cut into
/// chunks: the packets and the framing error do not depend on where the stream is cut; the
/// packets, re-encoded, are the stream's octets in order; the reader accounts for every octet
/// (packets, skipped runs and what ``H4StreamReader/finish()`` reports) and holds at most one
/// unfinished packet.
///
/// Input: one octet whose low bits choose the chunk length (1...16), then the stream. A small
/// maximum packet size (1 KiB) lets the fuzzer reach the too-large path with short inputs.
enum H4DeframerHarness {
    static let maximumPacketSize = 1024

    static func test(_ bytes: [UInt8]) {
        guard let control = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        let chunk = Int(control & 0x0F) + 1

        // The deframer, whole, then in chunks.
        func deframe(_ chunkLength: Int) -> (packets: [HCIPacket], error: H4StreamDeframer.Error?, pending: Int) {
            var deframer = H4StreamDeframer(maximumPacketSize: maximumPacketSize)
            var packets: [HCIPacket] = []
            var index = 0
            while index < stream.count {
                let end = min(index + chunkLength, stream.count)
                do { packets += try deframer.append(stream[index..<end]) } catch { return (packets, error, deframer.pendingCount) }
                index = end
            }
            if let error = deframer.error { return (packets, error, deframer.pendingCount) }
            return (packets, nil, deframer.pendingCount)
        }
        let whole = deframe(max(1, stream.count))
        let cut = deframe(chunk)
        FuzzProperty.require(whole.packets == cut.packets, "chunks of \(chunk) give other packets than the whole stream \(Hex.encode(stream))")
        FuzzProperty.require(whole.error == cut.error, "chunks of \(chunk) give error \(String(describing: cut.error)), the whole stream \(String(describing: whole.error))")
        let framed = whole.packets.flatMap(\.h4Encoded)
        FuzzProperty.require(Array(stream.prefix(framed.count)) == framed, "the packets are not the stream's octets: \(Hex.encode(stream))")
        if whole.error == nil {
            FuzzProperty.require(framed.count + whole.pending == stream.count, "deframer: \(framed.count) framed + \(whole.pending) pending != \(stream.count)")
        }

        // The reader, whole, then in chunks: the same elements, every octet accounted for.
        func read(_ chunkLength: Int) -> (elements: [H4StreamReader.Element], reports: [H4SkippedOctets]) {
            var reader = H4StreamReader(maximumPacketSize: maximumPacketSize, longestSkip: 64)
            var elements: [H4StreamReader.Element] = []
            var index = 0
            while index < stream.count {
                let end = min(index + chunkLength, stream.count)
                elements += reader.append(stream[index..<end])
                FuzzProperty.require(reader.pendingCount <= 1 + maximumPacketSize, "the reader holds \(reader.pendingCount) octets")
                index = end
            }
            return (elements, reader.finish())
        }
        let wholeRead = read(max(1, stream.count))
        let cutRead = read(chunk)
        FuzzProperty.require(wholeRead.elements == cutRead.elements && wholeRead.reports == cutRead.reports,
                             "the reader's elements depend on chunks of \(chunk): \(Hex.encode(stream))")
        var accounted = 0
        for element in wholeRead.elements {
            switch element {
            case .packet(let packet): accounted += packet.h4Encoded.count
            case .skipped(let skipped):
                FuzzProperty.require(skipped.streamOffset == accounted && skipped.count > 0, "skipped \(skipped) at \(accounted)")
                accounted += skipped.count
            }
        }
        for report in wholeRead.reports {
            FuzzProperty.require(report.streamOffset == accounted, "finish reports \(report) at \(accounted)")
            accounted += report.count
        }
        FuzzProperty.require(accounted == stream.count, "the reader accounted for \(accounted) of \(stream.count) octets: \(Hex.encode(stream))")
    }
}

@_cdecl("FuzzH4Deframer_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        H4DeframerHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
