import BLECore

/// Something a ``GATTClient`` worked around on its connection: an optional step the server
/// answered badly, or includes of the server's database the client would not follow. The user's
/// procedure went on; ``consequence`` says what the client gave up for the rest of the
/// connection.
///
/// ```swift
/// let services = try await client.discoverDatabase()
/// for diagnostic in await client.diagnostics {
///     print(diagnostic)   // "Database Hash read (Core v5.4, Vol 3, Part G, 7.3): protocol violation: malformed
///                         //  value at handle 0x0002: ...; robust caching is off for this connection, ..."
/// }
/// ```
///
/// The optional steps are those of ``GATTClient/discoverDatabase()`` that only serve robust
/// caching and change tracking (Core v5.4, Vol 3, Part G, 2.5.2): reading the Database Hash
/// (7.3), writing Client Supported Features (7.2), and enabling Service Changed indications
/// (7.1). Each gives at most one diagnostic per connection, since the client does not try a
/// step again once it is switched off. A transaction timeout also gives one, but it ends the
/// bearer (Part F, 3.3.3), so the procedure then fails with ``GATTClientError/timeout`` all
/// the same: no ATT PDU may follow it.
public struct GATTClientDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What the client was doing.
    public enum Step: Sendable, Hashable, CustomStringConvertible {
        /// Reading the Database Hash with Read Using Characteristic UUID (Part G, 4.8.2 and 7.3).
        case databaseHashRead
        /// Writing Client Supported Features (Part G, 7.2).
        case clientSupportedFeaturesWrite
        /// Writing Service Changed's Client Characteristic Configuration to enable
        /// indications (Part G, 7.1 and 3.3.3.3).
        case serviceChangedIndications
        /// Finding the included services of the service declared at `serviceHandle` during
        /// whole-database discovery (Part G, 4.5.1).
        case findIncludedServices(serviceHandle: UInt16)
        /// Following the include declared at `declarationHandle` during whole-database
        /// discovery (Part G, 4.5.1).
        case include(declarationHandle: UInt16)

        /// "Database Hash read (Core v5.4, Vol 3, Part G, 7.3)", ...
        public var description: String {
            switch self {
            case .databaseHashRead: return "Database Hash read (Core v5.4, Vol 3, Part G, 7.3)"
            case .clientSupportedFeaturesWrite: return "Client Supported Features write (Core v5.4, Vol 3, Part G, 7.2)"
            case .serviceChangedIndications: return "enabling Service Changed indications (Core v5.4, Vol 3, Part G, 7.1)"
            case .findIncludedServices(let handle):
                return "finding the included services of the service at \(Hex.hex16(handle)) (Core v5.4, Vol 3, Part G, 4.5.1)"
            case .include(let handle): return "the include at \(Hex.hex16(handle)) (Core v5.4, Vol 3, Part G, 4.5.1)"
            }
        }
    }

    /// What went wrong.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The step failed: the server's ATT_ERROR_RSP, a protocol violation (a malformed or
        /// unexpected answer), or the transaction timeout.
        case failed(GATTClientError)
        /// The Read By Type Response for «Database Hash» listed `handle`, which the discovered
        /// database shows is not the value of a Database Hash characteristic (a server that
        /// answers Read By Type Requests whatever type is asked, Part F, 3.4.4.2).
        case notADatabaseHash(handle: UInt16)
        /// The Service Changed characteristic at `valueHandle` has no Client Characteristic
        /// Configuration descriptor, which its Indicate property requires (Part G, 3.3.3.3).
        case noServiceChangedConfiguration(valueHandle: UInt16)
        /// The include names `range`, which overlaps the already discovered service at
        /// `conflicting` without being it: its attributes belong to that service.
        case includeOverlapsService(range: ClosedRange<UInt16>, conflicting: ClosedRange<UInt16>)

        /// One line naming the problem.
        public var description: String {
            switch self {
            case .failed(let error): return error.description
            case .notADatabaseHash(let handle):
                return "the server listed \(Hex.hex16(handle)), which is not a Database Hash characteristic value"
            case .noServiceChangedConfiguration(let handle):
                return "Service Changed (value \(Hex.hex16(handle))) has no Client Characteristic Configuration descriptor"
            case .includeOverlapsService(let range, let conflicting):
                return "it names \(Hex.hex16(range.lowerBound))...\(Hex.hex16(range.upperBound)), which overlaps the service "
                    + "\(Hex.hex16(conflicting.lowerBound))...\(Hex.hex16(conflicting.upperBound))"
            }
        }
    }

    /// What the client gave up for the rest of the connection.
    public enum Consequence: Sendable, Hashable, CustomStringConvertible {
        /// Robust caching is off: no cache is read or written, the Database Hash is not read
        /// again, and the database is discovered in full (Part G, 2.5.2).
        case robustCachingOff
        /// Client Supported Features is not written again; the server may count this client
        /// as supporting none of the features (Part G, 7.2).
        case clientSupportedFeaturesNotWritten
        /// Service Changed indications are not enabled: the tree follows changes only through
        /// Database Out Of Sync errors and new discoveries (Part G, 7.1).
        case serviceChangedIndicationsOff
        /// The include is kept in its service's list, but its range is not walked.
        case includeNotFollowed
        /// The service is taken to include nothing: the answer was not include declarations.
        case includesSkipped
        /// The bearer ended (a transaction timeout, Part F, 3.3.3): nothing can be worked around.
        case bearerEnded

        /// One clause: "robust caching is off for this connection; the database is discovered in full".
        public var description: String {
            switch self {
            case .robustCachingOff: return "robust caching is off for this connection; the database is discovered in full"
            case .clientSupportedFeaturesNotWritten: return "Client Supported Features is not written on this connection"
            case .serviceChangedIndicationsOff: return "Service Changed indications are off for this connection"
            case .includeNotFollowed: return "the include is not followed"
            case .includesSkipped: return "the service is taken to include no service"
            case .bearerEnded: return "the ATT bearer has ended, so the procedure fails"
            }
        }
    }

    /// The step.
    public let step: Step
    /// What went wrong.
    public let problem: Problem
    /// What the client gave up.
    public let consequence: Consequence

    /// A diagnostic of `step`.
    public init(step: Step, problem: Problem, consequence: Consequence) {
        self.step = step
        self.problem = problem
        self.consequence = consequence
    }

    /// "Database Hash read (Core v5.4, Vol 3, Part G, 7.3): <problem>; <consequence>".
    public var description: String { "\(step): \(problem); \(consequence)" }
}
