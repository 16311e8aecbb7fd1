import BLECore

/// An HCI_LE_Meta event (0x3E), decoded by its Subevent_Code (Core v5.4, Vol 4, Part E, 7.7.65).
/// Subevents this package does not decode are kept whole in ``unknown(subevent:parameters:)``.
public enum LEMetaEvent: Hashable, Sendable, CustomStringConvertible {
    /// HCI_LE_Connection_Complete (0x01).
    case connectionComplete(ConnectionComplete)
    /// HCI_LE_Advertising_Report (0x02).
    case advertisingReport(AdvertisingReport)
    /// HCI_LE_Connection_Update_Complete (0x03).
    case connectionUpdateComplete(ConnectionUpdateComplete)
    /// HCI_LE_Read_Remote_Features_Complete (0x04).
    case readRemoteFeaturesComplete(ReadRemoteFeaturesComplete)
    /// HCI_LE_Long_Term_Key_Request (0x05).
    case longTermKeyRequest(LongTermKeyRequest)
    /// HCI_LE_Data_Length_Change (0x07).
    case dataLengthChange(DataLengthChange)
    /// HCI_LE_Enhanced_Connection_Complete [v1] (0x0A).
    case enhancedConnectionComplete(EnhancedConnectionComplete)
    /// HCI_LE_PHY_Update_Complete (0x0C).
    case phyUpdateComplete(PHYUpdateComplete)
    /// HCI_LE_Extended_Advertising_Report (0x0D).
    case extendedAdvertisingReport(ExtendedAdvertisingReport)
    /// HCI_LE_Channel_Selection_Algorithm (0x14).
    case channelSelectionAlgorithm(ChannelSelectionAlgorithm)
    /// HCI_LE_Enhanced_Connection_Complete [v2] (0x29).
    case enhancedConnectionCompleteV2(EnhancedConnectionCompleteV2)
    /// HCI_LE_Advertising_Set_Terminated (0x12, Core v5.4, Vol 4, Part E, 7.7.65.18).
    case advertisingSetTerminated(AdvertisingSetTerminated)
    /// Any other subevent: its code and the parameters after it, as received.
    case unknown(subevent: LEMetaSubeventCode, parameters: [UInt8])

    /// Decodes the parameters of an HCI_LE_Meta event: Subevent_Code, then the subevent's own.
    ///
    /// - Throws: ``BLEDecodingError`` naming the field, with offsets counted from the
    ///   Subevent_Code (the subevent's parameters start at 1):
    ///   ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Subevent_Code" when
    ///   `parameters` is empty, otherwise the subevent's errors.
    public init(parameters: ArraySlice<UInt8>) throws(BLEDecodingError) {
        guard let first = parameters.first else {
            throw .truncated(field: "Subevent_Code", offset: 0, needed: 1, available: 0)
        }
        let code = LEMetaSubeventCode(rawValue: first)
        let rest = parameters.dropFirst()
        do {
            switch code {
            case .connectionComplete: self = .connectionComplete(try .init(decoding: rest))
            case .advertisingReport: self = .advertisingReport(try .init(decoding: rest))
            case .connectionUpdateComplete: self = .connectionUpdateComplete(try .init(decoding: rest))
            case .readRemoteFeaturesComplete: self = .readRemoteFeaturesComplete(try .init(decoding: rest))
            case .longTermKeyRequest: self = .longTermKeyRequest(try .init(decoding: rest))
            case .dataLengthChange: self = .dataLengthChange(try .init(decoding: rest))
            case .enhancedConnectionComplete: self = .enhancedConnectionComplete(try .init(decoding: rest))
            case .phyUpdateComplete: self = .phyUpdateComplete(try .init(decoding: rest))
            case .extendedAdvertisingReport: self = .extendedAdvertisingReport(try .init(decoding: rest))
            case .channelSelectionAlgorithm: self = .channelSelectionAlgorithm(try .init(decoding: rest))
            case .enhancedConnectionCompleteV2: self = .enhancedConnectionCompleteV2(try .init(decoding: rest))
            case .advertisingSetTerminated: self = .advertisingSetTerminated(try .init(decoding: rest))
            default: self = .unknown(subevent: code, parameters: Array(rest))
            }
        } catch {
            throw error.shifted(by: 1)
        }
    }

    /// The subevent's code.
    public var subeventCode: LEMetaSubeventCode {
        switch self {
        case .connectionComplete: return .connectionComplete
        case .advertisingReport: return .advertisingReport
        case .connectionUpdateComplete: return .connectionUpdateComplete
        case .readRemoteFeaturesComplete: return .readRemoteFeaturesComplete
        case .longTermKeyRequest: return .longTermKeyRequest
        case .dataLengthChange: return .dataLengthChange
        case .enhancedConnectionComplete: return .enhancedConnectionComplete
        case .phyUpdateComplete: return .phyUpdateComplete
        case .extendedAdvertisingReport: return .extendedAdvertisingReport
        case .channelSelectionAlgorithm: return .channelSelectionAlgorithm
        case .enhancedConnectionCompleteV2: return .enhancedConnectionCompleteV2
        case .advertisingSetTerminated: return .advertisingSetTerminated
        case .unknown(let code, _): return code
        }
    }

    /// The subevent's parameters without Subevent_Code.
    public var subeventParameters: [UInt8] {
        switch self {
        case .connectionComplete(let e): return e.encoded
        case .advertisingReport(let e): return e.encoded
        case .connectionUpdateComplete(let e): return e.encoded
        case .readRemoteFeaturesComplete(let e): return e.encoded
        case .longTermKeyRequest(let e): return e.encoded
        case .dataLengthChange(let e): return e.encoded
        case .enhancedConnectionComplete(let e): return e.encoded
        case .phyUpdateComplete(let e): return e.encoded
        case .extendedAdvertisingReport(let e): return e.encoded
        case .channelSelectionAlgorithm(let e): return e.encoded
        case .enhancedConnectionCompleteV2(let e): return e.encoded
        case .advertisingSetTerminated(let e): return e.encoded
        case .unknown(_, let parameters): return parameters
        }
    }

    /// The HCI_LE_Meta event's parameters: Subevent_Code, then the subevent's.
    public var parameters: [UInt8] { [subeventCode.rawValue] + subeventParameters }

    /// The subevent's name and parameters on one line.
    public var description: String {
        switch self {
        case .connectionComplete(let e): return e.description
        case .advertisingReport(let e): return e.description
        case .connectionUpdateComplete(let e): return e.description
        case .readRemoteFeaturesComplete(let e): return e.description
        case .longTermKeyRequest(let e): return e.description
        case .dataLengthChange(let e): return e.description
        case .enhancedConnectionComplete(let e): return e.description
        case .phyUpdateComplete(let e): return e.description
        case .extendedAdvertisingReport(let e): return e.description
        case .channelSelectionAlgorithm(let e): return e.description
        case .enhancedConnectionCompleteV2(let e): return e.description
        case .advertisingSetTerminated(let e): return e.description
        case .unknown(let code, let parameters):
            return parameters.isEmpty ? code.description : "\(code) parameters=\(Hex.encode(parameters))"
        }
    }
}
