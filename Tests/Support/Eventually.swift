/// Lets other tasks run until `condition` holds, without sleeping (the tests wait on readiness,
/// never on a timer): up to `attempts` yields of the caller.
///
/// - Returns: whether `condition` came to hold; a test that needs it expects true, so a
///   regression to waiting for ever fails the test instead of hanging the run.
public func eventually(attempts: Int = 200_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}
