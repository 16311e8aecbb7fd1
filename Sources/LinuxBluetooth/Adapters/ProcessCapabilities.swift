import Foundation

/// The Linux capabilities this process holds in its effective set (capabilities(7)), read from
/// the `CapEff` line of /proc/self/status: kernel mode checks them to say which one a refused
/// call needs, instead of repeating the kernel's bare EPERM.
///
/// ```swift
/// if !ProcessCapabilities.effective.contains(.netRaw) { print("HCI commands need CAP_NET_RAW") }
/// ```
public struct ProcessCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// CAP_NET_ADMIN (12): the management channel's commands, the HCI user channel, powering adapters.
    public static let netAdmin = ProcessCapabilities(rawValue: 1 << 12)
    /// CAP_NET_RAW (13): commands on an adapter's raw HCI channel.
    public static let netRaw = ProcessCapabilities(rawValue: 1 << 13)

    /// The effective set now; nil when /proc/self/status cannot be read or has no CapEff line
    /// (not Linux, or no procfs).
    public static var effective: ProcessCapabilities? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return parse(status: status)
    }

    /// The effective set in the text of /proc/PID/status: its `CapEff:` line, 16 hex digits.
    public static func parse(status: String) -> ProcessCapabilities? {
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let digits = line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces)
            return UInt64(digits, radix: 16).map(ProcessCapabilities.init(rawValue:))
        }
        return nil
    }
}
