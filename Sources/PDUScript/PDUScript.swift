import BLECore

/// A PDU script: a GATT client or server under test exchanges ATT PDUs with a scripted peer,
/// step by step (the idea of BlueZ's unit/test-gatt.c, as data). docs/pdu-scripts.md gives
/// the format; Fixtures/gatt-scripts/ holds the scripts, named after Bluetooth SIG GATT test IDs
/// where one applies (for example GATT/SR/GAR/BV-01-C).
///
/// ```
/// # GATT/SR/GAR/BV-01-C: Read Characteristic Value (Core v5.4, Vol 3, Part G, 4.8.1)
/// role: server
/// database: small.json
/// send   0a 0300       # Read Request, handle 0x0003
/// expect 0b 4c 42      # Read Response
/// ```
public struct PDUScript: Sendable, Equatable {
    /// Which side the stack under test plays; the script plays the other.
    public enum Role: String, Sendable, Equatable {
        /// The stack is the GATT server; the script is a client.
        case server
        /// The stack is the GATT client; the script is a server.
        case client
    }

    /// One step, with the line it came from (for failure messages).
    public enum Step: Sendable, Equatable {
        /// The script (the peer) sends this PDU to the stack.
        case send([UInt8], line: Int)
        /// The stack must send a PDU matching this pattern next.
        case expect(PDUPattern, line: Int)
        /// The stack must send nothing more now.
        case expectNothing(line: Int)
        /// The application using the stack does something: a procedure or action name and its
        /// arguments (for example `read 0x0003`, `notify 0x0010 01 02`).
        case trigger(name: String, arguments: [String], line: Int)
        /// The last trigger must finish with this result text (for example `value 4142`,
        /// `error 0x05`, `ok`).
        case result(String, line: Int)

        /// The line the step came from.
        public var line: Int {
            switch self {
            case .send(_, let line), .expect(_, let line), .expectNothing(let line),
                 .trigger(_, _, let line), .result(_, let line):
                return line
            }
        }
    }

    /// The script's name: its file name without the extension, which is the SIG test ID with
    /// `/` written as `_` where one applies.
    public var name: String
    /// The test ID from the `test:` header, such as GATT/SR/GAR/BV-01-C.
    public var testID: String?
    public var role: Role
    /// The database file (in Fixtures/gatt-databases/) for a server under test, or the one the
    /// client's peer pretends to have (documentation only).
    public var database: String?
    /// The security the link offers the stack: `none`, `encrypted`, `authenticated`, with an
    /// optional `key-size N`.
    public var security: String?
    public var steps: [Step]
}

/// What an `expect` step accepts: octets, `??` for any one octet, and `...` at the end for any
/// number of further octets.
public struct PDUPattern: Sendable, Equatable, CustomStringConvertible {
    /// The expected octets; nil where any octet matches.
    public var octets: [UInt8?]
    /// Whether any further octets may follow.
    public var allowsMore: Bool

    public init(octets: [UInt8?], allowsMore: Bool = false) {
        self.octets = octets
        self.allowsMore = allowsMore
    }

    /// Whether `pdu` matches.
    public func matches(_ pdu: [UInt8]) -> Bool {
        guard pdu.count == octets.count || (allowsMore && pdu.count >= octets.count) else { return false }
        return zip(octets, pdu).allSatisfy { $0 == nil || $0 == $1 }
    }

    public var description: String {
        octets.map { $0.map { Hex.encode([$0]) } ?? "??" }.joined(separator: " ") + (allowsMore ? " ..." : "")
    }
}
