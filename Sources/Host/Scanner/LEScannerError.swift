import HCI

/// Why an ``LEScanner`` could not start or stop scanning.
public enum LEScannerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// LE_Scan_Type is neither passive (0x00) nor active (0x01).
    case invalidScanType(LEScanType)
    /// The scan interval is outside `allowed` (0.625 ms units) for the controller's family.
    case intervalOutOfRange(LESlotDuration, allowed: ClosedRange<UInt16>)
    /// The scan window is outside `allowed` (0.625 ms units) for the controller's family.
    case windowOutOfRange(LESlotDuration, allowed: ClosedRange<UInt16>)
    /// The scan window is longer than the scan interval (Vol 4, Part E, 7.8.10).
    case windowLongerThanInterval(window: LESlotDuration, interval: LESlotDuration)
    /// ``LEScanner/start(_:)`` was called while a scan runs.
    case alreadyScanning
    /// A command failed: the controller's status, a timeout, or a closed transport.
    case command(HCICommandError)

    /// What was wrong, with the allowed values.
    public var description: String {
        func units(_ range: ClosedRange<UInt16>) -> String {
            "0x\(String(range.lowerBound, radix: 16))...0x\(String(range.upperBound, radix: 16)) (0.625 ms units)"
        }
        switch self {
        case .invalidScanType(let type): return "invalid scan type: \(type) (passive 0x00 or active 0x01)"
        case .intervalOutOfRange(let interval, let allowed):
            return "scan interval \(interval) (0x\(String(interval.rawValue, radix: 16))) is outside \(units(allowed))"
        case .windowOutOfRange(let window, let allowed):
            return "scan window \(window) (0x\(String(window.rawValue, radix: 16))) is outside \(units(allowed))"
        case .windowLongerThanInterval(let window, let interval):
            return "scan window \(window) is longer than the scan interval \(interval)"
        case .alreadyScanning: return "already scanning"
        case .command(let error): return error.description
        }
    }
}
