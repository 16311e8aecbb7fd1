import BLECore

/// The reports of an advertising report event whose whole does not decode: those before the
/// first bad one, and why decoding stopped. Each report is delimited by its own Data_Length, so
/// once one is cut short or lies about its length the reports after it cannot be found; the ones
/// before it are whole and are kept (a scanner should not lose good advertisements for one bad
/// report from a controller).
public struct SalvagedAdvertisingReports<Report: HCIParameterLayout>: Hashable, Sendable {
    /// The reports that decoded, in order.
    public var reports: [Report]
    /// Why decoding stopped before Num_Reports reports (offsets count from the first octet after
    /// Subevent_Code); nil when every report decoded and nothing followed them.
    public var error: BLEDecodingError?

    /// Decodes Num_Reports (1 octet) and then the reports one by one from `parameters` (the
    /// event's parameters after Subevent_Code), keeping each that decodes and stopping at the
    /// first that does not. Trailing octets after the last report are an error too (the reports
    /// are kept).
    public init(decoding parameters: ArraySlice<UInt8>) {
        var reader = ByteReader(parameters)
        reports = []
        error = nil
        do {
            let count = try reader.readUInt8("Num_Reports")
            for _ in 0..<count { reports.append(try Report(from: &reader)) }
            try reader.expectEnd()
        } catch let failure {
            error = failure
        }
    }
}

extension LEMetaEvent.AdvertisingReport {
    /// The reports of an HCI_LE_Advertising_Report's parameters after Subevent_Code, as many as
    /// decode (Core v5.4, Vol 4, Part E, 7.7.65.2). See ``SalvagedAdvertisingReports``.
    public static func salvaging(_ parameters: ArraySlice<UInt8>) -> SalvagedAdvertisingReports<LEAdvertisingReport> {
        SalvagedAdvertisingReports(decoding: parameters)
    }
}

extension LEMetaEvent.ExtendedAdvertisingReport {
    /// The reports of an HCI_LE_Extended_Advertising_Report's parameters after Subevent_Code, as
    /// many as decode (Core v5.4, Vol 4, Part E, 7.7.65.13). See ``SalvagedAdvertisingReports``.
    public static func salvaging(_ parameters: ArraySlice<UInt8>) -> SalvagedAdvertisingReports<LEExtendedAdvertisingReport> {
        SalvagedAdvertisingReports(decoding: parameters)
    }
}
