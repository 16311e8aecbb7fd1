/// Why a ``GATTServer`` call failed. These are errors of the application's calls; errors a
/// client causes are answered on the bearer with ATT_ERROR_RSP and never thrown.
public enum GATTServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server could not place the GAP or GATT service it adds: the database leaves no
    /// `needed` consecutive free handles anywhere in 0x0001...0xFFFF (Core v5.4, Vol 3, Part F,
    /// 3.2.2), neither in a gap nor after its last handle.
    case noHandlesForServerServices(needed: Int)
    /// ``GATTServerConfiguration/serverServicesHandle`` asks for handles the database uses (or
    /// that pass 0xFFFF): the `needed` handles from `handle` are not free.
    case serverServicesHandleInUse(handle: UInt16, needed: Int)
    /// The database, with the services the server adds, is invalid (for example libcrypto could
    /// not compute the Database Hash).
    case database(GATTDatabaseError)
    /// `handle` is not the value handle of a characteristic whose properties permit the
    /// operation (`operation` is "notify" or "indicate", Core v5.4, Vol 3, Part G, 3.3.1.1).
    case notNotifiable(handle: UInt16, operation: String)
    /// The connection is no longer attached to the server.
    case notAttached

    /// One line, such as "handle 0x0012 is not a characteristic value that can notify".
    public var description: String {
        switch self {
        case .noHandlesForServerServices(let needed):
            return "no \(needed) consecutive free handles in the database for the GAP or GATT service"
        case let .serverServicesHandleInUse(handle, needed):
            return "the \(needed) handles from \(GATTDatabaseError.hex(handle)) for the GAP and GATT services are not free"
        case .database(let error):
            return "the database with the server's services is invalid: \(error)"
        case let .notNotifiable(handle, operation):
            return "handle \(GATTDatabaseError.hex(handle)) is not a characteristic value that can \(operation)"
        case .notAttached:
            return "the connection is not attached to the server"
        }
    }
}
