import BLE
import LinuxBluetooth

/// What every command gets from the global options: the controller and mode (`--transport`,
/// `--hci N`, default kernel mode on hci0), whether a down adapter may be powered on
/// (`--no-power`), and `--capture`.
struct KernelContext: Sendable {
    /// The adapter index N of hciN (kernel mode's, and `power`'s).
    var hci: UInt16 = 0
    /// Whether a command may power the adapter on when it is down (not with `--no-power`).
    var powersOn = true
    /// The controller and mode (`--transport`): kernel mode on hci`hci` unless it says otherwise.
    var transport = Transport.kernel(hci: 0)
    /// Where `--capture` writes the HCI traffic, or nil.
    var capture: String?

    /// A command-line failure that is already a sentence for the user.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One `--transport` word, parsed by the BLE API's ``Transport/init(_:)``.
    ///
    /// - Throws: ``Failure`` naming the forms and the word.
    static func transport(parsing text: String) throws(Failure) -> Transport {
        do { return try Transport(text) } catch {
            throw Failure("--transport takes \(Transport.forms); got '\(text)'")
        }
    }

    /// Kernel mode's adapter, up: powered on (with LE) through the management channel when it
    /// is down, unless `--no-power` was given. The BLE API never powers an adapter on (a down
    /// adapter is `.poweredOff` to it), so this, like `blectl power`, is adapter administration
    /// that blectl does before it makes a manager.
    ///
    /// - Throws: ``Failure`` naming the adapter and what to do.
    func adapter() async throws(Failure) -> HCIAdapterInfo {
        var adapter: HCIAdapterInfo
        do { adapter = try HCIAdapters.adapter(hci) } catch { throw Failure("\(error)") }
        if !adapter.isUp {
            guard powersOn else { throw Failure("hci\(hci) is down: `blectl --hci \(hci) power on` (or drop --no-power)") }
            do { _ = try await power(on: true) } catch { throw Failure("hci\(hci) is down and could not be powered on: \(error)") }
            do { adapter = try HCIAdapters.adapter(hci) } catch { throw Failure("\(error)") }
        }
        guard adapter.supportsLE else { throw Failure("hci\(hci) does not support LE") }
        return adapter
    }

    /// Powers the adapter on (with LE) or off through the management channel.
    ///
    /// - Returns: the adapter's settings afterwards.
    func power(on: Bool) async throws(ManagementError) -> ManagementSettings {
        let channel = try ManagementChannel()
        do {
            let settings = on ? try await channel.powerOn(hci) : try await channel.powerOff(hci)
            await channel.close()
            return settings
        } catch {
            await channel.close()
            throw error
        }
    }
}
