import Testing
import BLECore
import ATT
@testable import GATT

/// Where the server puts the GAP and GATT services it adds (Core v5.4, Vol 3, Part C, 12;
/// Part G, 7): each in the first free handle range that fits; none when the database declares
/// them or says not to add them; a database that ends at 0xFFFF works.
@Suite("GATT server: placing the GAP and GATT services it adds")
struct ServerServicesPlacementTests {
    /// The services served for the JSON `text`, as (UUID, handle range).
    static func served(_ text: String, configuration: GATTServerConfiguration = .init()) async throws -> [(String, ClosedRange<UInt16>)] {
        let server = try GATTServer(database: try GATTDatabase(jsonText: text), configuration: configuration)
        return await server.database.services.map { ($0.uuid.description, $0.handleRange) }
    }

    static func layout(_ list: [(String, ClosedRange<UInt16>)]) -> [String] {
        list.map { "\($0.0) \(Hex.hex16($0.1.lowerBound))...\(Hex.hex16($0.1.upperBound))" }
    }

    @Test("services starting at 0x0010: GAP at 0x0001-0x0005 and GATT at 0x0006-0x000F, in the gap before them")
    func gapAtTheFront() async throws {
        let list = try await Self.served(#"{ "services": [ { "uuid": "180F", "handle": "0x0010", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#)
        #expect(Self.layout(list) == ["1800 0x0001...0x0005", "1801 0x0006...0x000f", "180F 0x0010...0x0012"])
    }

    @Test("a database allocated from 0x0001 without gaps gets them after its last handle")
    func afterTheLastHandle() async throws {
        let list = try await Self.served(#"{ "services": [ { "uuid": "180F", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#)
        #expect(Self.layout(list) == ["180F 0x0001...0x0003", "1800 0x0004...0x0008", "1801 0x0009...0x0012"])
    }

    @Test("each goes into the first gap that fits it: GAP in a 6-handle gap, GATT in a later one")
    func eachInItsOwnGap() async throws {
        let list = try await Self.served("""
            { "services": [ { "uuid": "180F", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] },
                            { "uuid": "180A", "handle": "0x000a", "characteristics": [ { "uuid": "2A29", "properties": ["read"] } ] },
                            { "uuid": "1805", "handle": "0x0020", "characteristics": [ { "uuid": "2A2B", "properties": ["read"] } ] } ] }
            """)
        #expect(Self.layout(list) == ["180F 0x0001...0x0003", "1800 0x0004...0x0008", "180A 0x000a...0x000c",
                                      "1801 0x000d...0x0016", "1805 0x0020...0x0022"])
    }

    @Test("a preferred first handle takes both while free, yields to a database that needs it, and is not where kept services go")
    func preferredFirstHandle() async throws {
        let top = GATTServerConfiguration(preferredServerServicesHandle: GATTServerConfiguration.topServerServicesHandle)
        let battery = #"{ "services": [ { "uuid": "180F", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#
        #expect(Self.layout(try await Self.served(battery, configuration: top))
                == ["180F 0x0001...0x0003", "1800 0xfff1...0xfff5", "1801 0xfff6...0xffff"])
        let high = #"{ "services": [ { "uuid": "180F", "handle": "0xfff0", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#
        #expect(Self.layout(try await Self.served(high, configuration: top))
                == ["1800 0x0001...0x0005", "1801 0x0006...0x000f", "180F 0xfff0...0xfff2"])
        // Replaced, the database keeps them where they were while free, not at the preferred handle.
        let server = try GATTServer(database: try GATTDatabase(jsonText: high), configuration: top)
        let later = #"{ "services": [ { "uuid": "180F", "handle": "0x0020", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#
        try await server.replaceDatabase(try GATTDatabase(jsonText: later))
        #expect(Self.layout(await server.database.services.map { ($0.uuid.description, $0.handleRange) })
                == ["1800 0x0001...0x0005", "1801 0x0006...0x000f", "180F 0x0020...0x0022"])
    }

    @Test("a database that ends at 0xFFFF gets them in a gap")
    func endingAtFFFF() async throws {
        let list = try await Self.served("""
            { "services": [ { "uuid": "180F", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] },
                            { "uuid": "180A", "handle": "0xfffd", "characteristics": [ { "uuid": "2A29", "properties": ["read"] } ] } ] }
            """)
        #expect(Self.layout(list) == ["180F 0x0001...0x0003", "1800 0x0004...0x0008", "1801 0x0009...0x0012", "180A 0xfffd...0xffff"])
        // An End Group Handle of 0xFFFF takes every handle after the service.
        let grouped = try await Self.served("""
            { "services": [ { "uuid": "180F", "handle": "0x0100", "endGroupHandle": "0xffff",
                              "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }
            """)
        #expect(Self.layout(grouped) == ["1800 0x0001...0x0005", "1801 0x0006...0x000f", "180F 0x0100...0xffff"])
    }

    @Test("no free range that fits: a typed error naming the handles needed")
    func noRoom() async throws {
        let full = try GATTDatabase(jsonText: #"{ "services": [ { "uuid": "180F", "endGroupHandle": "0xffff" } ] }"#)
        #expect(throws: GATTServerError.noHandlesForServerServices(needed: 5)) { _ = try GATTServer(database: full) }
        // Room for GAP (5 handles at the end) but not for GATT (10).
        let almost = try GATTDatabase(jsonText: #"{ "services": [ { "uuid": "180F", "endGroupHandle": "0xfffa" } ] }"#)
        #expect(throws: GATTServerError.noHandlesForServerServices(needed: 10)) { _ = try GATTServer(database: almost) }
        #expect(GATTServerError.noHandlesForServerServices(needed: 10).description
                    == "no 10 consecutive free handles in the database for the GAP or GATT service")
    }

    @Test("a database that declares GAP gets only GATT; one that declares both gets neither")
    func declaredByTheDatabase() async throws {
        let gap = try await Self.served(#"{ "services": [ { "uuid": "1800", "handle": "0x0010", "characteristics": [ { "uuid": "2A00", "properties": ["read"], "value": { "text": "Mine" } } ] } ] }"#)
        #expect(Self.layout(gap) == ["1801 0x0001...0x000a", "1800 0x0010...0x0012"])
        let both = try await Self.served("""
            { "services": [ { "uuid": "1800", "characteristics": [ { "uuid": "2A00", "properties": ["read"] } ] },
                            { "uuid": "1801", "characteristics": [ { "uuid": "2A05", "properties": ["indicate"] } ] } ] }
            """)
        #expect(Self.layout(both) == ["1800 0x0001...0x0003", "1801 0x0004...0x0007"])
    }

    @Test("\"addServerServices\": false adds neither, and survives writing the database back as JSON")
    func notAdded() async throws {
        let text = #"{ "addServerServices": false, "services": [ { "uuid": "180F", "characteristics": [ { "uuid": "2A19", "properties": ["read"] } ] } ] }"#
        #expect(Self.layout(try await Self.served(text)) == ["180F 0x0001...0x0003"])
        let database = try GATTDatabase(jsonText: text)
        #expect(database.addsServerServices == false)
        let again = try GATTDatabase(jsonText: try database.jsonText())
        #expect(again.addsServerServices == false)
        #expect(try GATTDatabase(jsonText: #"{ "services": [] }"#).addsServerServices)
        #expect(throws: GATTDatabaseJSONError.wrongType(path: "addServerServices", expected: "true or false")) {
            _ = try GATTDatabase(jsonText: #"{ "addServerServices": "no", "services": [] }"#)
        }
        // The Swift form: the same flag on a built database.
        var built = try GATTDatabase(services: [.primary(BluetoothUUID(0x180F))])
        built.addsServerServices = false
        #expect(try await GATTServer(database: built).database.services.count == 1)
    }

    @Test("replacing the database keeps each added service where it was while its handles stay free, else moves it")
    func keptAcrossReplacement() async throws {
        let first = try GATTDatabase(jsonText: #"{ "services": [ { "uuid": "180F", "handle": "0x0020" } ] }"#)
        let server = try GATTServer(database: first)
        #expect(await server.serviceChangedHandle == 0x0008)                   // GATT at 0x0006-0x000F
        // A new service in the gap after GATT: both stay.
        try await server.replaceDatabase(try GATTDatabase(jsonText: #"{ "services": [ { "uuid": "180F", "handle": "0x0020" }, { "uuid": "180A", "handle": "0x0010" } ] }"#))
        #expect(await server.serviceChangedHandle == 0x0008)
        // A service over GAP's handles: GAP moves to the first gap that fits, GATT stays.
        try await server.replaceDatabase(try GATTDatabase(jsonText: #"{ "services": [ { "uuid": "180F", "handle": "0x0020" }, { "uuid": "180A", "handle": "0x0002" } ] }"#))
        let layout = await server.database.services.map { "\($0.uuid) \(Hex.hex16($0.handle))" }
        #expect(layout == ["180A 0x0002", "1801 0x0006", "1800 0x0010", "180F 0x0020"])
        #expect(await server.serviceChangedHandle == 0x0008)
    }
}
