import Host

extension BLEError {
    /// The BLE error for an advertiser's: data that does not fit the controller's advertising
    /// data (31 octets legacy, up to 251 per extended fragment; Core v5.4, Vol 4, Part E,
    /// 7.8.7 and 7.8.54) is ``advertisingDataTooLong(needed:available:)``, a structure that cannot
    /// be encoded ``invalidArgument(_:)``, and a refused command ``controllerError(_:)``.
    init(advertising error: LEAdvertiserError) {
        switch error {
        case .dataTooLong(_, let length, let maximum, _): self = .advertisingDataTooLong(needed: length, available: maximum)
        case .encoding(_, let error): self = .invalidArgument(error.description)
        default: self = .controllerError(error.description)
        }
    }
}
