import Glibc
import Testing

/// A connected pair of non-blocking, close-on-exec Unix SOCK_SEQPACKET sockets: the same
/// message-per-send sockets as the kernel's HCI and L2CAP channels, for a test to play the kernel
/// on one end.
func seqpacketPair() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
    return fds
}

/// Two non-blocking UDP sockets on the loopback interface, each connected to the other: a
/// datagram socket on which the kernel sets a pending error (ECONNREFUSED, from the ICMP Port
/// Unreachable a send to a closed peer brings back) while messages are still queued, as an L2CAP
/// socket has its link's error set while its last PDUs wait to be read.
func loopbackDatagramPair() throws -> [Int32] {
    var fds: [Int32] = []
    var addresses: [sockaddr_in] = []
    for _ in 0..<2 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(bound == 0)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        try #require(named == 0)
        fds.append(fd)
        addresses.append(address)
    }
    for (fd, peer) in [(fds[0], addresses[1]), (fds[1], addresses[0])] {
        var peer = peer
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
    }
    return fds
}
