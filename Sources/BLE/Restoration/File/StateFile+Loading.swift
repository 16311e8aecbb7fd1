import BLECore
import Foundation

/// What a manager found in its state file at start.
enum StateFileLoad<Body: RestorationBody>: Sendable {
    /// No file: a first start, nothing to restore.
    case nothing
    /// A whole, valid state of this role and identifier.
    case restored(Body)
    /// A file that cannot be trusted, now set aside (or that could not be moved: the problem
    /// says so); nothing is restored.
    case problem(RestorationProblem)
}

extension StateFile {
    /// Reads the state of the manager restored under `identifier`, trusting nothing: the file
    /// must be strict JSON (BLECore's `JSONReader`), carry this format, version, role and
    /// identifier, and decode and validate whole (``StateRecord``). Anything less is set aside
    /// and reported. Temporary files abandoned by killed writers are deleted first; the file
    /// itself never depends on them.
    func load<Body: RestorationBody>(_ body: Body.Type, identifier: String) -> StateFileLoad<Body> {
        removeAbandonedTemporaries()
        let octets: [UInt8]
        switch read() {
        case .absent:
            return .nothing
        case .unreadable(let why):
            return .problem(setAside(as: .unreadable, because: why))
        case .found(let found):
            octets = found
        }
        let json: JSONValue
        do {
            json = try JSONReader().value(parsing: octets)
        } catch {
            return .problem(setAside(as: .damaged, because: "not JSON: \(error)"))
        }
        if let foreign = StateFileEnvelope<Body>.foreignness(of: json, identifier: identifier) {
            return .problem(setAside(as: .foreign, because: foreign))
        }
        do {
            return .restored(try StateFileEnvelope<Body>(json: json, at: []).state)
        } catch {
            return .problem(setAside(as: .damaged, because: error.description))
        }
    }

    /// Moves the file aside and describes the problem.
    private func setAside(as kind: RestorationProblem.Kind, because reason: String) -> RestorationProblem {
        switch setAside() {
        case .success(let moved):
            return RestorationProblem(kind: kind, file: url, setAsideAs: moved, reason: reason)
        case .failure(let error):
            return RestorationProblem(kind: kind, file: url, reason: reason + "; it could not be set aside (\(error)), and the next state written replaces it")
        }
    }

    /// The file's octets for `state` of the manager restored under `identifier`: the envelope
    /// as compact JSON, then a line feed.
    static func octets<Body: RestorationBody>(of state: Body, identifier: String) -> [UInt8] {
        Array((StateFileEnvelope(identifier: identifier, state: state).json.description + "\n").utf8)
    }
}
