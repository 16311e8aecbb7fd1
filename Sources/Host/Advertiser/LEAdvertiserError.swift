import HCI

/// Why an ``LEAdvertiser`` could not start or stop advertising.
public enum LEAdvertiserError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which payload an error concerns.
    public enum Payload: String, Hashable, Sendable {
        /// The advertising data.
        case advertisingData = "advertising data"
        /// The scan response data.
        case scanResponse = "scan response"
    }

    /// The payload's AD structures take `length` octets, more than the `maximum` the
    /// controller's command family allows: 31 with the legacy commands (Vol 4, Part E, 7.8.7 and
    /// 7.8.8; Vol 6, Part B, 2.3.1), the controller's Max_Advertising_Data_Length with the
    /// extended ones (7.8.57), and 245 for a connectable set with extended PDUs, whose data must
    /// fit one AUX_ADV_IND (``LEAdvertiser/maximumConnectableExtendedDataLength``).
    case dataTooLong(Payload, length: Int, maximum: Int, family: LECommandFamily)
    /// An AD structure cannot be encoded (more than 254 octets of AD data).
    case encoding(Payload, ADEncodingError)
    /// An interval is outside `allowed` (0.625 ms units) for the family, or the minimum is above
    /// the maximum.
    case intervalOutOfRange(min: LEExtendedAdvertisingInterval, max: LEExtendedAdvertisingInterval, allowed: ClosedRange<UInt32>)
    /// The data need extended advertising PDUs (a payload over 31 octets), and an extended set
    /// cannot be both connectable and scannable, nor carry both advertising data and a scan
    /// response (Vol 4, Part E, 7.8.53 and 7.8.54): move the scan response into the
    /// advertising data, or shorten the payloads to 31 octets each.
    case scanResponseNeedsLegacyPDUs(advertisingDataLength: Int, scanResponseLength: Int)
    /// ``LEAdvertiser/start(_:)`` was called while advertising.
    case alreadyAdvertising
    /// A command failed: the controller's status, a timeout, or a closed transport.
    case command(HCICommandError)

    /// What was wrong and what to do.
    public var description: String {
        switch self {
        case .dataTooLong(let payload, let length, let maximum, let family):
            return "\(payload.rawValue) is \(length) octets; \(family) advertising carries at most \(maximum): "
                + "shorten it or move AD structures to the \(payload == .advertisingData ? "scan response" : "advertising data")"
        case .encoding(let payload, let error): return "\(payload.rawValue): \(error)"
        case .intervalOutOfRange(let min, let max, let allowed):
            return "advertising interval \(min)...\(max) is not within 0x\(String(allowed.lowerBound, radix: 16))..."
                + "0x\(String(allowed.upperBound, radix: 16)) (0.625 ms units) with min <= max"
        case .scanResponseNeedsLegacyPDUs(let ad, let sr):
            return "advertising data (\(ad) octets) and scan response (\(sr) octets) need extended advertising PDUs, "
                + "which cannot carry a scan response here: keep each payload within 31 octets, or advertise without a scan response"
        case .alreadyAdvertising: return "already advertising"
        case .command(let error): return error.description
        }
    }
}
