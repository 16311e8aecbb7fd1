import BLECore

/// One walk over a state-file record's members that either writes them as a JSON object
/// (``StateEncoder``) or reads them from one (``StateDecoder``): each record declares its
/// members once, in ``StateRecord/layout(_:)``, so the file's writer and reader cannot disagree
/// (the pattern of BLECore's `FieldLayoutCoder`).
protocol StateCoding {
    /// What the walk can fail with: `Never` when encoding, ``StateFileFault`` when decoding.
    associatedtype Failure: Error

    /// A member that is always present.
    mutating func field<T: StateValue>(_ value: inout T, _ name: String) throws(Failure)
    /// A member that is absent when `value` is nil (`null` is read as absent too).
    mutating func field<T: StateValue>(_ value: inout T?, _ name: String) throws(Failure)
}

/// A JSON object of the state file whose members one ``layout(_:)`` declares.
protocol StateRecord: StateValue {
    /// Every member empty or zero: the value decoding starts from.
    init()
    /// Hands each member to `coder`, in the order the file writes them.
    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure)
    /// Checks what the members cannot say alone (handles in order, values in range), after
    /// decoding.
    ///
    /// - Throws: ``StateFileFault`` naming the member under `path` that is wrong.
    func validate(at path: JSONPath) throws(StateFileFault)
}

extension StateRecord {
    func validate(at path: JSONPath) throws(StateFileFault) {}

    /// The record as a JSON object, its members in layout order.
    var json: JSONValue {
        var encoder = StateEncoder()
        var copy = self
        copy.layout(&encoder)
        return .object(encoder.members)
    }

    /// Reads the record from `json`: every member its layout declares, no other, then
    /// ``validate(at:)``.
    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        guard case .object(let members) = json else { throw StateFileFault(path: path, reason: "expected an object") }
        var decoder = StateDecoder(members: members, path: path)
        self.init()
        try layout(&decoder)
        try decoder.finish()
        try validate(at: path)
    }
}

/// Writes a record's members into a JSON object, in layout order.
struct StateEncoder: StateCoding {
    /// The members written so far.
    private(set) var members: [(String, JSONValue)] = []

    mutating func field<T: StateValue>(_ value: inout T, _ name: String) {
        members.append((name, value.json))
    }

    mutating func field<T: StateValue>(_ value: inout T?, _ name: String) {
        if let present = value { members.append((name, present.json)) }
    }
}

/// Reads a record's members from a JSON object, refusing a missing member and, at
/// ``finish()``, any member the layout did not name.
struct StateDecoder: StateCoding {
    private let members: [String: JSONValue]
    private let path: JSONPath
    private var unread: Set<String>

    /// A decoder of the object `members` found at `path` (BLECore's `JSONReader` has refused
    /// duplicate names already).
    init(members: [(String, JSONValue)], path: JSONPath) {
        self.members = Dictionary(members, uniquingKeysWith: { first, _ in first })
        self.path = path
        unread = Set(members.map(\.0))
    }

    private func at(_ name: String) -> JSONPath { JSONPath(path.components + [.member(name)]) }

    mutating func field<T: StateValue>(_ value: inout T, _ name: String) throws(StateFileFault) {
        guard let json = members[name] else { throw StateFileFault(path: at(name), reason: "missing") }
        unread.remove(name)
        value = try T(json: json, at: at(name))
    }

    mutating func field<T: StateValue>(_ value: inout T?, _ name: String) throws(StateFileFault) {
        unread.remove(name)
        guard let json = members[name], json != .null else {
            value = nil
            return
        }
        value = try T(json: json, at: at(name))
    }

    /// Refuses the members no field read.
    func finish() throws(StateFileFault) {
        if let stray = unread.sorted().first { throw StateFileFault(path: at(stray), reason: "not a member of this record") }
    }
}
