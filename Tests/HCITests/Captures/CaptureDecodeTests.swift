import BLECore
import BLETestSupport
import HCI
import Testing

/// Every H4 record of the real Android snoop captures in ../shared/captures decodes, names what
/// it can, and encodes back to the same octets. Skipped (visibly) when the folder is absent, as
/// in a user's clone.
@Suite("Real captures")
struct CaptureDecodeTests {
    static var available: Bool { SharedCaptures.available }

    struct Tally {
        var commands = 0, knownCommands = 0, events = 0, knownEvents = 0, acl = 0
        var extendedReports = 0, reservedEventTypeReports = 0
    }

    static func decodeAll(_ name: String) throws -> Tally {
        var tally = Tally()
        for (index, record) in try h4Packets(inSharedCapture: name).enumerated() where !record.isEmpty {
            let packet: HCIPacket
            do { packet = try HCIPacket(h4: record) } catch {
                Issue.record("\(name) record \(index + 1): \(error)")
                continue
            }
            #expect(packet.h4Encoded == record, "\(name) record \(index + 1)")
            switch packet {
            case .command(let command):
                tally.commands += 1
                do {
                    let value = try HCICommandValue(packet: command)
                    if value.command != nil { tally.knownCommands += 1 }
                    #expect(value.packet == command, "\(name) record \(index + 1)")
                    #expect(!value.description.isEmpty)
                } catch {
                    Issue.record("\(name) record \(index + 1) \(command.opcode): \(error)")
                }
            case .event(let eventPacket):
                tally.events += 1
                do {
                    let event = try HCIEvent(packet: eventPacket)
                    if case .unknown = event {} else { tally.knownEvents += 1 }
                    #expect(event.packet == eventPacket, "\(name) record \(index + 1)")
                    #expect(!event.description.isEmpty)
                    if case .leMeta(.extendedAdvertisingReport(let reports)) = event {
                        tally.extendedReports += 1
                        tally.reservedEventTypeReports += reports.reports.filter { $0.eventType.reservedBits != 0 }.count
                    }
                } catch {
                    Issue.record("\(name) record \(index + 1) \(eventPacket.code): \(error)")
                }
            case .acl:
                tally.acl += 1
            default:
                break
            }
        }
        return tally
    }

    @Test("the insufficient-authentication btsnoop: every packet, with reserved Event_Type bit 15",
          .enabled(if: available, Comment(rawValue: SharedCaptures.skipNote)))
    func pairingCapture() throws {
        let tally = try Self.decodeAll(SharedCaptures.nexxtenderBTSnoop)
        // Counts from the capture's README and tshark: 290 extended advertising report events.
        #expect(tally.extendedReports == 290)
        #expect(tally.reservedEventTypeReports == 113)
        #expect(tally.commands == 278)
        #expect(tally.events == 681)
        #expect(tally.knownCommands > 0)
        #expect(tally.knownEvents > 0)
    }

    @Test("the long-write cfa capture: every packet, 8241 extended reports",
          .enabled(if: available, Comment(rawValue: SharedCaptures.skipNote)))
    func longWriteCapture() throws {
        let tally = try Self.decodeAll(SharedCaptures.nexxtenderCFA)
        #expect(tally.extendedReports == 8241)
        #expect(tally.commands == 628)
        #expect(tally.events == 9190)
    }

    @Test("the whole cfa capture through the H4 stream deframer, in 97-octet chunks",
          .enabled(if: available, Comment(rawValue: SharedCaptures.skipNote)))
    func deframeCapture() throws {
        let records = try h4Packets(inSharedCapture: SharedCaptures.nexxtenderCFA).filter { !$0.isEmpty }
        let stream = records.flatMap { $0 }
        var deframer = H4StreamDeframer()
        var packets: [HCIPacket] = []
        var index = 0
        while index < stream.count {
            let end = min(index + 97, stream.count)
            packets += try deframer.append(stream[index..<end])
            index = end
        }
        #expect(packets.count == records.count)
        #expect(packets.map(\.h4Encoded) == records)
    }
}
