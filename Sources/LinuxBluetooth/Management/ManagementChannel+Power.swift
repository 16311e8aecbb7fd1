/// Powering adapters through the management channel, the way kernel mode needs them: on, with LE.
extension ManagementChannel {
    /// Turns LE on (when the controller supports it and it is off) and then powers adapter
    /// `index` on. The legacy HCIDEVUP ioctl is not enough: on a dual-mode controller it leaves LE
    /// off, and LE sockets then fail.
    ///
    /// - Returns: the Current Settings afterwards.
    /// - Throws: ``ManagementError`` (Invalid Index for no such adapter, RFKilled, ...).
    public func powerOn(_ index: UInt16) async throws(ManagementError) -> ManagementSettings {
        let information = try await controllerInformation(index)
        var settings = information.currentSettings
        if information.supportedSettings.contains(.lowEnergy) && !settings.contains(.lowEnergy) {
            settings = try await set(.setLowEnergy(true), on: index)
        }
        if !settings.contains(.powered) {
            settings = try await set(.setPowered(true), on: index)
        }
        return settings
    }

    /// Powers adapter `index` off.
    ///
    /// - Returns: the Current Settings afterwards.
    public func powerOff(_ index: UInt16) async throws(ManagementError) -> ManagementSettings {
        try await set(.setPowered(false), on: index)
    }
}
