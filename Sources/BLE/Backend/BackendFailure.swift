/// Why a mode could not start (its transport could not be opened, or its controller brought up):
/// the state it leaves the manager in, and what the manager's calls throw.
struct BackendFailure: Error, Sendable {
    var state: ManagerState
    var error: BLEError
}
