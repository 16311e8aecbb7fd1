import Foundation

/// The real captures of devices in the wild (read-only; never copied into the repo, and absent in
/// a user's clone): in the folder the environment variable `LINUXBLE_CAPTURES` names, else in
/// `<package root>/../shared/captures` (the development setup). Test suites that use them are
/// enabled only when ``available`` is true, so a clone skips them visibly, saying where it looked
/// and how to point it elsewhere (``skipNote``).
public enum SharedCaptures {
    /// The environment variable that names the captures' folder.
    public static let environmentVariable = "LINUXBLE_CAPTURES"

    /// `$LINUXBLE_CAPTURES` when it is set and not empty; else `<package root>/../shared/captures`,
    /// found from this file's path (`<package root>/Tests/Support/SharedCaptures.swift`).
    public static let directory = directory(environment: ProcessInfo.processInfo.environment)

    /// The captures' folder for a process with `environment`: its `LINUXBLE_CAPTURES` when set and
    /// not empty, else `<package root>/../shared/captures`.
    public static func directory(environment: [String: String]) -> String {
        if let chosen = environment[environmentVariable], !chosen.isEmpty { return chosen }
        let supportFile = URL(fileURLWithPath: #filePath)
        let root = supportFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/captures").standardized.path
    }

    /// Why the real-capture tests skip, for their `.enabled(if:)` trait: where the captures were
    /// looked for, and the variable that sets the place.
    public static var skipNote: String {
        "the real captures are not in \(directory) (set \(environmentVariable) to the folder that holds them): skipped"
    }

    /// crackle's LE legacy pairing with LTK exchange: LE link-layer packets in PPI (pcap).
    public static let legacyPPI = "crackle_legacy_pairing_ltk_exchange_ppi_ll.pcap"
    /// crackle's LE Secure Connections pairing with concurrent MTU 517 and discovery (pcapng).
    public static let lescPcapng = "crackle_lesc_pairing_concurrent_mtu517_discovery.pcapng"
    /// An Android HCI snoop log (btsnoop, H4 datalink 1002): discovery, an Insufficient
    /// Authentication error, then LE Secure Connections pairing.
    public static let nexxtenderBTSnoop = "nexxtender_charger_android_discovery_insufficient_auth_pairing.btsnoop"
    /// An Android HCI snoop log (btsnoop, H4 datalink 1002, with vendor data on handle 0x0EDC):
    /// long writes, indications and extended advertising.
    public static let nexxtenderCFA = "nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa"

    /// Every capture named above.
    public static let all = [legacyPPI, lescPcapng, nexxtenderBTSnoop, nexxtenderCFA]

    /// The path of the capture `name` in ``directory``.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// Whether the capture `name` is present.
    public static func contains(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Whether every capture named above is present (none are in a user's clone).
    public static var available: Bool { all.allSatisfy(contains) }
}
