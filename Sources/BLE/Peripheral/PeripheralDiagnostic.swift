import GATT

/// Something a peripheral's GATT client worked around on the current connection, from
/// ``Peripheral/diagnostics``: an optional step of ``Peripheral/discoverDatabase()`` that the
/// server answered badly (the Database Hash read, Core v5.4, Vol 3, Part G, 7.3; the Client
/// Supported Features write, 7.2; enabling Service Changed indications, 7.1), or includes of the
/// server's database that could not be followed (4.5.1). The discovery went on; ``consequence``
/// says what the client gave up for the rest of the connection.
///
/// ```swift
/// _ = try await peripheral.discoverDatabase()
/// for diagnostic in await peripheral.diagnostics { print("worked around: \(diagnostic)") }
/// // worked around: Client Supported Features write (Core v5.4, Vol 3, Part G, 7.2): Write Request
/// //   handle 0x000b: Write Not Permitted (0x03); Client Supported Features is not written on this connection
/// ```
public struct PeripheralDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What the client was doing, with the specification's section:
    /// "Database Hash read (Core v5.4, Vol 3, Part G, 7.3)".
    public let step: String
    /// What went wrong: the server's ATT_ERROR_RSP, a malformed answer, ...
    public let problem: String
    /// What the client gave up: "robust caching is off for this connection; the database is
    /// discovered in full".
    public let consequence: String

    /// The diagnostic of the GATT client's `diagnostic`.
    init(_ diagnostic: GATTClientDiagnostic) {
        step = diagnostic.step.description
        problem = diagnostic.problem.description
        consequence = diagnostic.consequence.description
    }

    /// "STEP: PROBLEM; CONSEQUENCE".
    public var description: String { "\(step): \(problem); \(consequence)" }
}
