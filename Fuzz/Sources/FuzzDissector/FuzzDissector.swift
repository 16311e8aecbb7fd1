import BLECore
import Capture
import FuzzSupport

/// The dissector on whole capture files, any format (what `blectl decode` does with a file):
/// one dissected packet per record, in order, each with a line and JSON that parses back and
/// holds a summary; a report whose counts agree with the records; and memory within the dissector's
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
            FuzzProperty.require(!packet.line.isEmpty, "record \(record.index) has an empty line")
            // The summary is read from the JSON parsed back, which holds it, rather than made a
            // third time (the line and the JSON each make it).
            let json = packet.jsonText
            guard case .object(let members)? = try? JSONReader().value(parsing: json) else {
                FuzzProperty.fail("record \(record.index): its JSON does not parse as an object: \(json)")
            }
            guard case .string(let summary)? = members.first(where: { $0.0 == "summary" })?.1, !summary.isEmpty else {
                FuzzProperty.fail("record \(record.index) has no summary in its JSON: \(json)")
            }
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
