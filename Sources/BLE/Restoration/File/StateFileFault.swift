import BLECore

/// Where a restoration state file departs from its layout (docs/state-restoration.md), and how:
/// the member path (`peripherals[2].services[0].uuid`) and the reason.
struct StateFileFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member path from the top of the file; empty for the file as a whole.
    var path: JSONPath
    /// What is wrong there.
    var reason: String

    /// "peripherals[2].address: \"EA:59\" is not an address written AA:BB:CC:DD:EE:FF".
    var description: String { path.components.isEmpty ? reason : "\(path): \(reason)" }
}
