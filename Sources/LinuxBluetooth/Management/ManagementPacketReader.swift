import CBluetoothLinux
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads management packets as the socket becomes readable (a DispatchSource), one per message.
final class ManagementPacketReader: Sendable {
    let packets: AsyncStream<ManagementPacket>
    private let input: AsyncStream<ManagementPacket>.Continuation
    private let source = Mutex<DispatchSourceRead?>(nil)

    init(socket: BluetoothSocket) {
        (packets, input) = AsyncStream.makeStream(of: ManagementPacket.self)
        let input = self.input
        let queue = DispatchQueue(label: "LinuxBluetooth.ManagementChannel")
        source.withLock { state in
            let reader = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            reader.setEventHandler {
                var buffer = [UInt8](repeating: 0, count: 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { cbl_recv(socket.descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        if let packet = try? ManagementPacket(decoding: Array(buffer[..<count])) { input.yield(packet) }
                        continue
                    }
                    if count == 0 || (Int32(-count) != EAGAIN && Int32(-count) != EINTR) { input.finish() }
                    return
                }
            }
            reader.setCancelHandler { socket.close() }
            reader.resume()
            state = reader
        }
    }

    func stop() {
        let reader = source.withLock { state in
            defer { state = nil }
            return state
        }
        reader?.cancel()
        input.finish()
    }
}
