import Foundation

/// The real captures shared beside the package, in `<package root>/../shared/captures`
/// (read-only; never copied into the repo, and absent in a user's clone). Test suites that use
/// them are enabled only when ``available`` is true, so a clone skips them visibly.
public enum SharedCaptures {
    /// `<package root>/../shared/captures`, found from this file's path
    /// (`<package root>/Tests/Support/SharedCaptures.swift`).
    public static let directory: String = {
        let supportFile = URL(fileURLWithPath: #filePath)
        let root = supportFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/captures").path
    }()

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
