import Foundation
import HCI
import Host
import Synchronization

/// An ``HCITransport`` that passes everything through and writes each packet, both ways, to a
/// btsnoop file (datalink 1002, H4), which `blectl decode`, btmon and Wireshark read.
///
/// The file is written as packets pass: the 16-octet header when the transport is made, then
/// one record per packet (Packet Flags: bit 0 the direction, set for controller to host; bit 1
/// set for commands and events). A write that fails (the disk is full, say) stops the capture
/// and keeps the reason in ``writeError``; the traffic itself goes on.
///
/// ```swift
/// let transport = try CapturingHCITransport(wrapping: try await H4StreamTransport.connect(host: "127.0.0.1", port: 9000),
///                                           path: "session.btsnoop")
/// let stack = try await HostStack.start(on: transport)
/// ```
public final class CapturingHCITransport: HCITransport, Sendable {
    /// The packets from the controller, each written to the file first.
    public let packets: AsyncStream<HCIPacket>

    private let inner: any HCITransport
    private let file: FileHandle
    /// Encodes each record alone (the header went out first).
    private let encoder: BTSnoopWriter
    private let state = Mutex((records: 0, error: String?.none, closed: false))

    /// Wraps `inner`, capturing to a new file at `path` (replaced when it exists).
    ///
    /// - Throws: ``CaptureWriteError`` when the file cannot be created.
    public init(wrapping inner: any HCITransport, path: String) throws(CaptureWriteError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw .fileNotWritable(path: path, reason: String(cString: strerror(errno)))
        }
        self.inner = inner
        self.file = file
        encoder = try BTSnoopWriter(datalink: .btsnoopH4)
        let (stream, continuation) = AsyncStream.makeStream(of: HCIPacket.self)
        packets = stream
        write(encoder.bytes, isRecord: false)     // the 16-octet file header
        let source = inner.packets
        Task { [self] in
            for await packet in source {
                record(packet, direction: .controllerToHost)
                continuation.yield(packet)
            }
            continuation.finish()
        }
    }

    /// Records written so far.
    public var recordCount: Int { state.withLock { $0.records } }

    /// Why the capture stopped, when a write failed.
    public var writeError: String? { state.withLock { $0.error } }

    /// Writes the packet, then sends it.
    ///
    /// - Throws: the wrapped transport's error.
    public nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError) {
        record(packet, direction: .hostToController)
        try await inner.send(packet)
    }

    /// Closes the wrapped transport and the file.
    public func close() async {
        await inner.close()
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if first { try? file.close() }
    }

    private func record(_ packet: HCIPacket, direction: CaptureDirection) {
        let h4 = packet.h4Encoded
        let now = Date().timeIntervalSince1970
        let record = CaptureRecord(index: 0, timestamp: Int64(now * 1_000_000), direction: direction,
                                   packet: .hci(type: HCIPacketType(rawValue: h4[0]), payload: Array(h4.dropFirst())),
                                   originalLength: h4.count, capturedLength: h4.count)
        guard let encoded = try? encoder.encode(record) else { return }
        write(encoded, isRecord: true)
    }

    private func write(_ octets: [UInt8], isRecord: Bool) {
        state.withLock { state in
            guard state.error == nil, !state.closed else { return }
            do {
                try file.write(contentsOf: Data(octets))
                if isRecord { state.records += 1 }
            } catch {
                state.error = "\(error)"
            }
        }
    }
}
