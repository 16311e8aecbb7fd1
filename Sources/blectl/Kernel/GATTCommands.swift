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
      gatt       discovers every service (those reached through includes too), characteristic
                 and descriptor and prints the tree, then what it worked around: optional steps
                 the peer answered badly (the Database Hash read, Client Supported Features,
                 Service Changed indications), which never fail the command
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

    static let withoutResponse = CommandOption.flag("--without-response")
    static let indicate = CommandOption.flag("--indicate")
    static let json = CommandOption.flag("--json")
    static let shared = KernelContext.ConnectOptions.declared
    static let gattSyntax = CommandSyntax(name: "gatt", operands: "ADDR", sharedOptions: shared, help: usage)
    static let readSyntax = CommandSyntax(name: "read", operands: "ADDR HANDLE|UUID", sharedOptions: shared, help: usage)
    static let writeSyntax = CommandSyntax(name: "write", operands: "ADDR HANDLE|UUID HEX", options: [withoutResponse], sharedOptions: shared, help: usage)
    static let subscribeSyntax = CommandSyntax(name: "subscribe", operands: "ADDR UUID", options: [indicate, json], sharedOptions: shared, help: usage)

    /// One GATT procedure on its parsed arguments; a ``UsageError`` it throws is a usage error.
    typealias Procedure = @Sendable (ParsedArguments, KernelContext, inout OutputBuffer) async throws -> Void

    /// The four commands, each its syntax and its procedure.
    static let commands = [command(gattSyntax, gatt), command(readSyntax, read), command(writeSyntax, write),
                           command(subscribeSyntax, subscribe)]

    /// A command that parses its arguments with `syntax`, then runs `procedure` on them.
    static func command(_ syntax: CommandSyntax, _ procedure: @escaping Procedure) -> Command {
        Command(syntax) { arguments, context, output in
            await run(syntax, procedure, arguments: arguments, context: context, output: &output)
        }
    }

    /// Parses `arguments` with `syntax` and runs `procedure`: exit 0 when it succeeds, 2 for a
    /// usage error, 1 for any other failure (its message names what to do).
    static func run(_ syntax: CommandSyntax, _ procedure: Procedure, arguments: [String], context: KernelContext,
                    output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        do {
            try await procedure(parsed, context, &output)
            return 0
        } catch let failure as UsageError {
            return syntax.usageError(failure.description)
        } catch {
            printError("blectl \(syntax.name): \(error)")
            return 1
        }
    }

    /// The connection options in `parsed`, after a check that it holds `count` operands.
    static func options(_ parsed: ParsedArguments, count: Int) throws(UsageError) -> KernelContext.ConnectOptions {
        let options: KernelContext.ConnectOptions
        do { options = try KernelContext.ConnectOptions(parsed) } catch { throw UsageError(error.description) }
        guard parsed.operands.count == count else {
            throw UsageError("expected \(count) argument\(count == 1 ? "" : "s"), got \(parsed.operands.count)")
        }
        return options
    }

    static func address(_ text: String) throws -> BluetoothAddress {
        guard let address = BluetoothAddress(text) else {
            throw UsageError("'\(text)' is not a device address (AA:BB:CC:DD:EE:FF)")
        }
        return address
    }

    static func target(_ text: String) throws -> KernelContext.Target {
        do { return try KernelContext.Target(text) } catch { throw UsageError(error.description) }
    }

    // MARK: gatt

    static func gatt(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(parsed, count: 1)
        let connection = try await context.connect(address(parsed.operands[0]), options)
        let client = connection.client
        let services: [RemoteService]
        do { services = try await client.discoverDatabase() } catch { throw KernelContext.failure(error, options) }
        let diagnostics = await client.diagnostics
        await connection.close()
        for line in GATTTreeText.lines(services) + GATTTreeText.workarounds(diagnostics) { output.line(line) }
    }

    // MARK: read

    static func read(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(parsed, count: 2)
        let target = try target(parsed.operands[1])
        let connection = try await context.connect(address(parsed.operands[0]), options)
        let client = connection.client
        let handle = try await KernelContext.valueHandle(target, on: client, options)
        let value: [UInt8]
        do { value = try await client.readLong(handle) } catch { throw KernelContext.failure(error, options) }
        await connection.close()
        output.line(GATTTreeText.value(value, handle: handle))
    }

    // MARK: write

    static func write(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(parsed, count: 3)
        let target = try target(parsed.operands[1])
        guard let value = Hex.decode(parsed.operands[2]) else {
            throw UsageError("'\(parsed.operands[2])' is not hexadecimal octets")
        }
        let connection = try await context.connect(address(parsed.operands[0]), options)
        let client = connection.client
        let handle = try await KernelContext.valueHandle(target, on: client, options)
        do {
            if parsed.contains(withoutResponse) {
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

    static func subscribe(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let options = try options(parsed, count: 2)
        let json = parsed.contains(Self.json)
        guard case .uuid(let uuid) = try target(parsed.operands[1]) else {
            throw UsageError("subscribe takes a characteristic UUID")
        }
        let connection = try await context.connect(address(parsed.operands[0]), options)
        let client = connection.client
        let characteristic = try await KernelContext.characteristic(uuid, on: client, options)
        let kind: GATTClientSubscription.Kind = parsed.contains(indicate) ? .indication : .notification
        let subscription: GATTClientSubscription
        do { subscription = try await client.notifications(for: characteristic, kind: kind) } catch {
            throw KernelContext.failure(error, options)
        }
        output.line(json
                    ? JSONValue.object([("subscribed", .string(uuid.description)), ("handle", .int(Int(characteristic.valueHandle)))]).description
                    : "subscribed to \(characteristic.uuid.descriptionWithName) at \(Hex.hex16(characteristic.valueHandle)); Ctrl-C ends")
        output.flush()
        // Ctrl-C (or SIGTERM) ends the subscription: the CCCD is written back to 0x0000.
        let interrupt = Interrupt { Task { await subscription.cancel(); await client.close() } }
        for await value in subscription {
            output.line(json ? GATTTreeText.json(value, uuid: uuid) : GATTTreeText.line(value))
            output.flush()
            if output.isClosed { break }
        }
        interrupt.stop()
        await connection.close()
    }
}
