import BLECore
import Glibc
import HCI
import Testing
@testable import LinuxBluetooth

/// A connected pair of non-blocking, close-on-exec Unix SOCK_STREAM sockets: a byte stream
/// like a UART or TCP, for an H4 transport on one end and the test on the other.
func streamPair() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
    return fds
}

/// An H4 frame from annotated hexadecimal (see `Hex.decode`), as a packet.
func h4Packet(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HCIPacket {
    try HCIPacket(h4: try #require(Hex.decode(text), sourceLocation: sourceLocation))
}

/// An ACL packet on `handle` whose data is `count` octets counting up from `seed`.
func aclPacket(handle: UInt16 = 0x040, seed: UInt8 = 0, count: Int) -> HCIPacket {
    let data = (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) }
    return .acl(HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: data))
}

/// Writes all of `octets` to a non-blocking descriptor, waiting for room with poll(2) (the
/// test's side of the stream; the transports under test never poll).
func writeAll(_ fd: Int32, _ octets: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    var written = 0
    while written < octets.count {
        let count = octets.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        if count > 0 { written += count; continue }
        guard count < 0, errno == EAGAIN || errno == EINTR else {
            Issue.record("write: errno \(errno)", sourceLocation: sourceLocation)
            return
        }
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, 1000)
    }
}

/// The next `count` packets of `transport`, in order (fewer when it finishes first).
func receive(_ count: Int, from transport: H4StreamTransport) async -> [HCIPacket] {
    var packets: [HCIPacket] = []
    for await packet in transport.packets {
        packets.append(packet)
        if packets.count == count { break }
    }
    return packets
}
