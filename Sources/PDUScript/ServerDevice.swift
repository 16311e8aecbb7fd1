import ATT
import GATT

extension PDUScriptRunner {
    /// The server under test for a `role: server` script; the GATT server is not merged yet.
    static func makeServerDevice(_ script: PDUScript, databases: String,
                                 bearer: InMemoryATTBearer) async throws -> any PDUScriptDevice {
        throw PDUScriptDeviceError("server scripts need the GATT server")
    }
}
