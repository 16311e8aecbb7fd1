import Capture
import Foundation
import Host

/// ``ManagerOptions/captureFile``: a mode's HCI transport with a btsnoop writer around it
/// (``CapturingHCITransport``), so every packet that passes is written as it passes.
enum CaptureWrapping {
    /// `transport`, captured to `file` when one is given; `transport` itself otherwise.
    ///
    /// - Throws: ``BackendFailure`` (``ManagerState/unsupported``, ``BLEError/invalidArgument(_:)``
    ///   naming the path and the system's reason) when the file cannot be created; `transport`
    ///   is closed then.
    static func wrap(_ transport: any HCITransport, in file: URL?) async throws(BackendFailure) -> any HCITransport {
        guard let file else { return transport }
        do {
            return try CapturingHCITransport(wrapping: transport, path: file.path)
        } catch {
            await transport.close()
            throw BackendFailure(state: .unsupported, error: .invalidArgument("the capture file: \(error)"))
        }
    }
}
