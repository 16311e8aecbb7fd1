extension Peripheral {
    /// Reads the link's received signal strength (HCI_Read_RSSI, Vol 4, Part E, 7.5.4).
    ///
    /// - Returns: the RSSI in dBm (-127...20).
    /// - Throws: ``BLEError/notConnected``; ``BLEError/disconnected(_:)``;
    ///   ``BLEError/controllerError(_:)`` when the controller refuses.
    public func readRSSI() async throws(BLEError) -> Int {
        let link = try connectedLink()
        return try await link.perform { () async -> Result<Int, BLEError>? in
            do throws(BLEError) {
                return .success(try await link.backend.signalStrength())
            } catch .disconnected {
                return nil   // the link's end answers, once its watcher has taken it in
            } catch {
                return .failure(error)
            }
        }
    }
}
