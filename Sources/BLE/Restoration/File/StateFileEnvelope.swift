import BLECore

/// The state one role keeps (``CentralState``, ``PeripheralManagerState``), inside a
/// ``StateFileEnvelope``.
protocol RestorationBody: StateRecord, Hashable {
    /// The role's word in the file and its name: "central" or "peripheralManager".
    static var role: String { get }
}

/// The whole state file: whose it is, then the role's state (docs/state-restoration.md).
///
/// ```json
/// {"format":"linuxble-restoration","version":1,"role":"central","identifier":"gateway","state":{...}}
/// ```
///
/// `format`, `version`, `role` and `identifier` are checked before anything else is read, so a
/// file of another program, version, role or identifier is told apart (``RestorationProblem/Kind/foreign``)
/// from a damaged one.
struct StateFileEnvelope<Body: RestorationBody>: StateRecord, Hashable {
    /// The `format` member of every LinuxBLE state file.
    static var format: String { "linuxble-restoration" }
    /// The layout version this code writes and reads; any other is foreign.
    static var version: Int { 1 }

    var format = Self.format
    var version = Self.version
    var role = Body.role
    /// The restore identifier the manager was given.
    var identifier = ""
    /// The role's state.
    var state = Body()

    init() {}

    /// The file of the manager restored under `identifier`, holding `state`.
    init(identifier: String, state: Body) {
        self.identifier = identifier
        self.state = state
    }

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&format, "format")
        try coder.field(&version, "version")
        try coder.field(&role, "role")
        try coder.field(&identifier, "identifier")
        try coder.field(&state, "state")
    }

    /// Why `json` is not this program's file for `identifier`, from its envelope alone; nil
    /// when it is (its state may still be damaged).
    static func foreignness(of json: JSONValue, identifier: String) -> String? {
        guard case .object(let members) = json else { return "the top level is not an object" }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        guard member("format") == .string(format) else { return "no \"format\": \"\(format)\" member: not a LinuxBLE state file" }
        guard member("version") == .int(version) else {
            return "format version \(member("version").map(\.description) ?? "missing"); this version of LinuxBLE reads \(version)"
        }
        guard member("role") == .string(Body.role) else {
            return "the state of a \(member("role").map(\.description) ?? "missing role"), not of a \(Body.role)"
        }
        guard member("identifier") == .string(identifier) else {
            return "the state of restore identifier \(member("identifier").map(\.description) ?? "(missing)"), not \"\(identifier)\""
        }
        return nil
    }
}
