import BLECore
import Capture
import FuzzSupport

/// The dissector on whole capture files, any format (what `blectl decode` does with a file):
/// one dissected packet per record, in order, each with a line, a summary and JSON (which parses
/// back); a report whose counts agree with the records; and memory within the dissector's
/// limits, which are set small here so that every table fills and evicts.
enum DissectorHarness {
    static let limits: Dissector.Limits = {
        var limits = Dissector.Limits()
        limits.links = 4
        limits.listedEndedLinks = 3
        limits.devices = 4
        limits.controllers = 2
        limits.pendingPDUsPerLane = 2
        return limits
    }()

    static func test(_ bytes: [UInt8]) {
        guard let file = try? CaptureFile(bytes: bytes) else { return }
        let records = file.readAll().records
        var dissector = Dissector(limits: limits)
        for record in records {
            let packet = dissector.dissect(record)
            FuzzProperty.require(packet.index == record.index, "record \(record.index) dissected as \(packet.index)")
            FuzzProperty.require(!packet.line.isEmpty && !packet.summary.isEmpty, "record \(record.index) has an empty line")
            let json = packet.json.description
            FuzzProperty.require((try? JSONReader().value(parsing: json)) != nil, "record \(record.index): its JSON does not parse: \(json)")
        }
        let report = dissector.report
        FuzzProperty.require(report.recordCount == records.count, "report counts \(report.recordCount) of \(records.count) records")
        FuzzProperty.require(report.malformedCount <= records.count, "\(report.malformedCount) malformed of \(records.count)")
        FuzzProperty.require(report.hciCommands + report.hciEvents + report.aclPackets + report.linkLayerPackets <= records.count,
                             "more packets counted than records")
        FuzzProperty.require(report.devices.count <= limits.devices, "\(report.devices.count) devices kept, limit \(limits.devices)")
        FuzzProperty.require(report.connections.count <= limits.links + limits.listedEndedLinks,
                             "\(report.connections.count) connections kept, limit \(limits.links) + \(limits.listedEndedLinks)")
        FuzzProperty.require(report.attCounts.reduce(0) { $0 + $1.count } <= records.count, "more ATT PDUs than records")
        FuzzProperty.require(!report.renderedLines.isEmpty, "an empty report")
    }
}

@_cdecl("FuzzDissector_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        DissectorHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
