import Foundation

/// Something restoration could not do or could not trust, as ``CentralManager/events`` and
/// ``PeripheralManager/events`` report it (and ``CentralManager/restorationProblems`` and
/// ``PeripheralManager/restorationProblems`` keep): docs/state-restoration.md.
///
/// ```swift
/// for await event in central.events {
///     if case .restorationProblem(let problem) = event { log.warning("\(problem)") }
/// }
/// ```
///
/// A state file that is damaged or foreign is never used: it is moved aside to
/// ``setAsideAs`` (its name with `.damaged` after it) and the manager starts with nothing
/// restored, as if it had no file.
public struct RestorationProblem: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The file is not a whole, valid state: truncated or malformed JSON, a member missing
        /// or of the wrong type, a bad UUID, address or handle, handles out of order.
        case damaged
        /// The file is valid JSON but another's: not a LinuxBLE state file, another version of
        /// the format, another role (a peripheral manager's file under a central's name), or
        /// another restore identifier.
        case foreign
        /// The file is there but could not be read (permissions, not a regular file, larger
        /// than 16 MiB).
        case unreadable
        /// The state could not be written (the directory cannot be created, the disk is full):
        /// the file keeps the last state written, and a later change tries again.
        case unwritable
        /// The file was good but part of the state could not be brought back: a notifying
        /// characteristic is gone from a changed database, a Client Characteristic
        /// Configuration write was refused, a service could not be published again, advertising
        /// could not start.
        case notRestored

        /// "damaged", "foreign", ...
        public var description: String {
            switch self {
            case .damaged: return "damaged"
            case .foreign: return "foreign"
            case .unreadable: return "unreadable"
            case .unwritable: return "unwritable"
            case .notRestored: return "not restored"
            }
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// The state file concerned.
    public let file: URL
    /// Where the file was moved so that it is never read again; nil when it was not moved
    /// (``Kind/unwritable``, ``Kind/notRestored``, or the move itself failed: ``reason`` says so).
    public let setAsideAs: URL?
    /// What exactly: the JSON member and its fault ("line 1, column 913: the text ends inside a
    /// string", "peripherals[0].services[1].uuid: \"18G0\" is not a Bluetooth UUID ..."), the
    /// failed system call, the characteristic not resubscribed.
    public let reason: String

    /// A problem of `kind` with `file`.
    public init(kind: Kind, file: URL, setAsideAs: URL? = nil, reason: String) {
        self.kind = kind
        self.file = file
        self.setAsideAs = setAsideAs
        self.reason = reason
    }

    /// "central-gateway.json is damaged (set aside as central-gateway.json.damaged): line 1, ...".
    public var description: String {
        let aside = setAsideAs.map { " (set aside as \($0.lastPathComponent))" } ?? ""
        return "\(file.lastPathComponent) is \(kind)\(aside): \(reason)"
    }
}
