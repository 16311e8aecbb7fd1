import BLECore
import Dispatch
import Foundation
import GATT
import LinuxBluetooth

/// The kernel-mode GATT client commands: `gatt`, `read`, `write`, `subscribe`. Each connects to
/// the peer over the kernel's L2CAP ATT channel from adapter hci`--hci`, runs one GATT procedure
/// and disconnects (subscribe: until interrupted or the link ends).
enum GATTCommands {
    static let usage = """
    usage: blectl [--hci N] gatt ADDR [OPTIONS]
           blectl [--hci N] read ADDR HANDLE|UUID [OPTIONS]
           blectl [--hci N] write ADDR HANDLE|UUID HEX [--without-response] [OPTIONS]
           blectl [--hci N] subscribe ADDR UUID [--indicate] [--json] [OPTIONS]
    OPTIONS: [--random] [--security low|medium|high] [--timeout S] [--mtu OCTETS]

    Kernel mode: connects to ADDR over the kernel's LE L2CAP ATT channel from adapter hciN
    (default hci0; powered on with LE when it is down, unless --no-power comes before the command).
      gatt       discovers every service, characteristic and descriptor and prints the tree
      read       reads a value (long values whole) by handle (0x0003) or characteristic UUID (2A19)
      write      writes HEX; values longer than ATT_MTU-3 are written long (prepare and execute)
      subscribe  enables notifications (or indications) and prints each value until Ctrl-C
      --random        ADDR is a random (static) address; default public
      --security L    low (default), or medium or high: the kernel pairs and encrypts before ATT
                      flows. blectl itself accepts the kernel's Just Works pairing request for ADDR
                      (its management channel needs CAP_NET_ADMIN), so no bluetoothd is needed for
                      medium; high needs pairing with MITM protection, which only an agent that
                      shows or takes a passkey gives (bluetoothd's). A characteristic that answers
                      Insufficient Authentication or Encryption says to raise it.
      --timeout S     connection timeout in seconds (default 20)
      --mtu OCTETS    the ATT_MTU offered, 23...517 (default 517; 23 makes long values go in many
                      Read Blob and Prepare Write requests)
    """

    static func run(_ command: String, arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            output.line(usage)
            return 0
        }
        do {
            switch command {
            case "gatt": try await gatt(arguments, context, &output)
            case "read": try await read(arguments, context, &output)
            case "write": try await write(arguments, context, &output)
            default: try await subscribe(arguments, context, &output)
            }
            return 0
        } catch let failure as UsageFailure {
            printError("blectl \(command): \(failure.description)\n\(BlectlCommand.helpLine("\(command)"))")
            return 2
        } catch {
            printError("blectl \(command): \(error)")
            return 1
        }
    }

    /// A mistake in the command line (exit status 2).
    struct UsageFailure: Error, CustomStringConvertible {
        let description: String
    }

    static func options(_ arguments: [String], count: Int, flags: Set<String> = []) throws -> KernelContext.ConnectOptions {
        let options: KernelContext.ConnectOptions
        do { options = try KernelContext.ConnectOptions(arguments, flags: flags) } catch { throw UsageFailure(description: error.description) }
        guard options.positional.count == count else {
            throw UsageFailure(description: "expected \(count) argument\(count == 1 ? "" : "s"), got \(options.positional.count)")
        }
        return options
    }

    static func address(_ text: String) throws -> BluetoothAddress {
        guard let address = BluetoothAddress(text) else {
            throw UsageFailure(description: "'\(text)' is not a device address (AA:BB:CC:DD:EE:FF)")
        }
        return address
    }

    static func target(_ text: String) throws -> KernelContext.Target {
        do { return try KernelContext.Target(text) } catch { throw UsageFailure(description: error.description) }
    }

    // MARK: gatt

    static func gatt(_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(arguments, count: 1)
        let connection = try await context.connect(address(options.positional[0]), options)
        let client = connection.client
        let services: [RemoteService]
        do { services = try await client.discoverDatabase() } catch { throw KernelContext.failure(error, options) }
        await connection.close()
        for line in GATTTreeText.lines(services) { output.line(line) }
    }

    // MARK: read

    static func read(_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(arguments, count: 2)
        let target = try target(options.positional[1])
        let connection = try await context.connect(address(options.positional[0]), options)
        let client = connection.client
        let handle = try await KernelContext.valueHandle(target, on: client, options)
        let value: [UInt8]
        do { value = try await client.readLong(handle) } catch { throw KernelContext.failure(error, options) }
        await connection.close()
        output.line(GATTTreeText.value(value, handle: handle))
    }

    // MARK: write

    static func write(_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(arguments, count: 3, flags: ["--without-response"])
        let target = try target(options.positional[1])
        guard let value = Hex.decode(options.positional[2]) else {
            throw UsageFailure(description: "'\(options.positional[2])' is not hexadecimal octets")
        }
        let connection = try await context.connect(address(options.positional[0]), options)
        let client = connection.client
        let handle = try await KernelContext.valueHandle(target, on: client, options)
        do {
            if options.flags.contains("--without-response") {
                try await client.writeWithoutResponse(value, to: handle)
            } else if value.count > (await client.mtu) - 3 {
                try await client.writeLong(value, to: handle)
            } else {
                try await client.write(value, to: handle)
            }
        } catch {
            throw KernelContext.failure(error, options)
        }
        await connection.close()
        output.line("wrote \(value.count) octets to \(Hex.hex16(handle))")
    }

    // MARK: subscribe

    static func subscribe(_ arguments: [String], _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(arguments, count: 2, flags: ["--indicate", "--json"])
        guard case .uuid(let uuid) = try target(options.positional[1]) else {
            throw UsageFailure(description: "subscribe takes a characteristic UUID")
        }
        let connection = try await context.connect(address(options.positional[0]), options)
        let client = connection.client
        let characteristic = try await KernelContext.characteristic(uuid, on: client, options)
        let kind: GATTClientSubscription.Kind = options.flags.contains("--indicate") ? .indication : .notification
        let subscription: GATTClientSubscription
        do { subscription = try await client.notifications(for: characteristic, kind: kind) } catch {
            throw KernelContext.failure(error, options)
        }
        output.line(options.flags.contains("--json")
                    ? JSONValue.object([("subscribed", .string(uuid.description)), ("handle", .int(Int(characteristic.valueHandle)))]).description
                    : "subscribed to \(characteristic.uuid.descriptionWithName) at \(Hex.hex16(characteristic.valueHandle)); Ctrl-C ends")
        output.flush()
        // Ctrl-C (or SIGTERM) ends the subscription: the CCCD is written back to 0x0000.
        let interrupt = Interrupt { Task { await subscription.cancel(); await client.close() } }
        for await value in subscription {
            output.line(options.flags.contains("--json") ? GATTTreeText.json(value, uuid: uuid) : GATTTreeText.line(value))
            output.flush()
            if output.isClosed { break }
        }
        interrupt.stop()
        await connection.close()
    }
}
