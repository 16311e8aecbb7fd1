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
