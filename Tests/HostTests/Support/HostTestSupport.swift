import BLECore
import HCI
import Host
import Testing
import BLETestSupport

/// An H4 frame from hexadecimal (indicator first; spaces and `#` comments allowed).
func h4(_ hex: String) throws -> HCIPacket {
    try ScriptedHCITransport.packet(h4: hex)
}

/// Suspends (yielding, never sleeping) until `condition` holds; records an issue naming `what`
/// when it never does.
func eventually(_ what: String, _ condition: () async -> Bool) async {
    if await BLETestSupport.eventually(attempts: 100_000, condition) { return }
    Issue.record("never: \(what)")
}

/// A command flow on `transport` whose commands wait 60 s for their answer: no test here waits
/// for a real timeout (those run on a TestClock), and on a loaded machine the default 2 s could
/// end a command before the test answers it.
func patientFlow(_ transport: ScriptedHCITransport) -> HCICommandFlow {
    HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
}

/// Checks that the script was played whole and the host sent exactly what it expected.
func expectScriptPlayed(_ transport: ScriptedHCITransport, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(transport.mismatches == [], sourceLocation: sourceLocation)
    #expect(transport.isFinished, "remaining: \(transport.remainingSteps)", sourceLocation: sourceLocation)
}

/// A Supported_Commands mask with the commands of `opcodes` set.
func supportedCommands(_ opcodes: [HCIOpcode]) -> HCISupportedCommands {
    var octets = [UInt8](repeating: 0, count: HCISupportedCommands.octetCount)
    for opcode in opcodes {
        if let (octet, bit) = HCISupportedCommands.position(of: opcode) { octets[octet] |= 1 << UInt8(bit) }
    }
    return HCISupportedCommands(octets: octets)
}

/// Capabilities of a legacy-only controller (Bluetooth 4.2).
let legacyCapabilities = LEControllerCapabilities(leFeatures: [.leEncryption], supportedCommands: supportedCommands([]))

/// Capabilities of an extended controller whose Max_Advertising_Data_Length is `maximum`.
func extendedCapabilities(maximum: Int = 1650) -> LEControllerCapabilities {
    LEControllerCapabilities(leFeatures: [.leEncryption, .leExtendedAdvertising],
                             supportedCommands: supportedCommands(LECommandFamily.extendedCommands),
                             maximumAdvertisingDataLength: maximum)
}
