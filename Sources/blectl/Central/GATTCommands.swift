import BLE
import BLECore
import Foundation
import Synchronization

/// The GATT client commands: `gatt`, `read`, `write`, `subscribe`. Each is a client of the BLE
/// API: a ``CentralManager`` on `--transport` connects to the peer (``CentralSession``), the
/// ``Peripheral`` runs the GATT procedures, and the link ends when the command does
/// (subscribe: when interrupted or the link drops).
enum GATTCommands {
    static let usage = """
    usage: blectl [--hci N] gatt ADDR [OPTIONS]
           blectl [--hci N] read ADDR HANDLE|UUID [OPTIONS]
           blectl [--hci N] write ADDR HANDLE|UUID HEX [--without-response] [OPTIONS]
           blectl [--hci N] subscribe ADDR UUID [--indicate] [--json] [OPTIONS]
    OPTIONS: [--random] [--security low|medium|high] [--timeout S] [--mtu OCTETS]

    Connects to ADDR through the BLE API's CentralManager: in kernel mode over the kernel's LE
    L2CAP ATT channel from adapter hciN (default hci0; powered on with LE when it is down, unless
    --no-power comes before the command; the manager also opens hciN's raw HCI channel, which
    needs CAP_NET_RAW), or on host mode's controller (--transport).
      gatt       discovers every service (those reached through includes too), characteristic
                 and descriptor and prints the tree, then what it worked around: optional steps
                 the peer answered badly (the Database Hash read, Client Supported Features,
                 Service Changed indications), which never fail the command
      read       reads a value (long values whole) by characteristic UUID (2A19), or by handle
                 (0x0003): a characteristic's value handle or a descriptor's, as gatt prints them
                 (the database is discovered first, to know what the handle is)
      write      writes HEX; values longer than ATT_MTU-3 are written long (prepare and execute);
                 --without-response needs the Write Without Response property
      subscribe  enables notifications (or indications) and prints each value until Ctrl-C; the
                 link dropping ends it with exit status 1
      --random        ADDR is a random (static) address; default public
      --security L    low (default), or medium or high: the kernel pairs and encrypts before ATT
                      flows. The API accepts the kernel's Just Works pairing request for ADDR itself
                      (its management channel needs CAP_NET_ADMIN), so no bluetoothd is needed for
                      medium; high needs pairing with MITM protection, which only an agent that
                      shows or takes a passkey gives (bluetoothd's). Host mode cannot pair yet. A
                      characteristic that answers Insufficient Authentication or Encryption says
                      to raise it.
      --timeout S     connection timeout in seconds (default 20)
      --mtu OCTETS    the ATT_MTU offered, 23...517 (default 517; 23 makes long values go in many
                      Read Blob and Prepare Write requests)
    """

    static let withoutResponse = CommandOption.flag("--without-response")
    static let indicate = CommandOption.flag("--indicate")
    static let json = CommandOption.flag("--json")
    static let shared = ConnectionArguments.declared
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
    static func arguments(_ parsed: ParsedArguments, count: Int) throws(UsageError) -> ConnectionArguments {
        let arguments: ConnectionArguments
        do { arguments = try ConnectionArguments(parsed) } catch { throw UsageError(error.description) }
        guard parsed.operands.count == count else {
            throw UsageError("expected \(count) argument\(count == 1 ? "" : "s"), got \(parsed.operands.count)")
        }
        return arguments
    }

    static func address(_ text: String) throws -> BluetoothAddress {
        guard let address = BluetoothAddress(text) else {
            throw UsageError("'\(text)' is not a device address (AA:BB:CC:DD:EE:FF)")
        }
        return address
    }

    static func target(_ text: String) throws -> AttributeTarget {
        do { return try AttributeTarget(text) } catch { throw UsageError(error.description) }
    }

    // MARK: gatt

    /// The whole database (``Peripheral/discoverDatabase()``), then what it worked around.
    static func gatt(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let arguments = try arguments(parsed, count: 1)
        let session = try await CentralSession.connect(address(parsed.operands[0]), arguments, context: context)
        let services: [Service]
        do { services = try await session.database() } catch {
            await session.close()
            throw error
        }
        let diagnostics = await session.peripheral.diagnostics
        let lines = GATTTreeText.lines(services) + GATTTreeText.workarounds(diagnostics)
        await session.close()
        for line in lines { output.line(line) }
    }

    // MARK: read

    static func read(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let arguments = try arguments(parsed, count: 2)
        let target = try target(parsed.operands[1])
        let session = try await CentralSession.connect(address(parsed.operands[0]), arguments, context: context)
        do {
            let attribute = try await session.find(target)
            let value: Data
            do {
                switch attribute {
                case .characteristic(let characteristic): value = try await session.peripheral.readValue(for: characteristic)
                case .descriptor(let descriptor): value = try await session.peripheral.readValue(for: descriptor)
                }
            } catch {
                throw session.failure(error)
            }
            await session.close()
            output.line(GATTTreeText.value([UInt8](value), handle: attribute.handle))
        } catch {
            await session.close()
            throw error
        }
    }

    // MARK: write

    static func write(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let arguments = try arguments(parsed, count: 3)
        let target = try target(parsed.operands[1])
        guard let value = Hex.decode(parsed.operands[2]) else {
            throw UsageError("'\(parsed.operands[2])' is not hexadecimal octets")
        }
        let session = try await CentralSession.connect(address(parsed.operands[0]), arguments, context: context)
        do {
            let attribute = try await session.find(target)
            do {
                switch attribute {
                case .characteristic(let characteristic):
                    let type: WriteType = parsed.contains(withoutResponse) ? .withoutResponse : .withResponse
                    try await session.peripheral.writeValue(Data(value), for: characteristic, type: type)
                case .descriptor(let descriptor):
                    guard !parsed.contains(withoutResponse) else {
                        throw KernelContext.Failure("a descriptor is written with a response (Core v5.4, Vol 3, Part G, 4.12.3): drop --without-response")
                    }
                    try await session.peripheral.writeValue(Data(value), for: descriptor)
                }
            } catch let error as BLEError {
                throw session.failure(error)
            }
            await session.close()
            output.line("wrote \(value.count) octets to \(Hex.hex16(attribute.handle))")
        } catch {
            await session.close()
            throw error
        }
    }

    // MARK: subscribe

    /// Enables notifications (or, with `--indicate`, indications) and prints each value until
    /// Ctrl-C (which turns them off and disconnects: exit 0) or the link drops (exit 1).
    static func subscribe(_ parsed: ParsedArguments, _ context: KernelContext, _ output: inout OutputBuffer) async throws {
        let arguments = try arguments(parsed, count: 2)
        let json = parsed.contains(Self.json)
        guard case .uuid(let uuid) = try target(parsed.operands[1]) else {
            throw UsageError("subscribe takes a characteristic UUID")
        }
        let session = try await CentralSession.connect(address(parsed.operands[0]), arguments, context: context)
        let peripheral = session.peripheral
        let characteristic: Characteristic
        do {
            guard case .characteristic(let found) = try await session.find(.uuid(uuid)) else {
                throw KernelContext.Failure("the peer has no characteristic \(uuid.descriptionWithName)")
            }
            characteristic = found
        } catch {
            await session.close()
            throw error
        }
        let handle = characteristic.valueHandle
        let updates = peripheral.valueUpdates(for: characteristic)
        do {
            try await peripheral.setNotifyValue(true, for: characteristic, kind: parsed.contains(indicate) ? .indication : .notification)
        } catch {
            await session.close()
            throw session.failure(error)
        }
        output.line(json
                    ? JSONValue.object([("subscribed", .string(uuid.description)), ("handle", .int(Int(handle)))]).description
                    : "subscribed to \(characteristic.uuid.descriptionWithName) at \(Hex.hex16(handle)); Ctrl-C ends")
        output.flush()
        // Ctrl-C (or SIGTERM) ends the subscription: the CCCD is written back to 0x0000. Turning
        // notifications off finishes the stream first and writes the descriptor after
        // (Peripheral.setNotifyValue), so the loop below ends while the write is still on its way.
        let unsubscribing = Unsubscribing()
        let interrupt = Interrupt {
            unsubscribing.start {
                do throws(BLEError) { try await peripheral.setNotifyValue(false, for: characteristic) } catch {
                    await session.central.cancelPeripheralConnection(peripheral)
                }
            }
        }
        var ended: (any Error)?
        do {
            for try await update in updates {
                output.line(json ? GATTTreeText.json(update, handle: handle, uuid: uuid) : GATTTreeText.line(update, handle: handle))
                output.flush()
                if output.isClosed { break }
            }
        } catch {
            ended = error
        }
        interrupt.stop()
        // The CCCD write that Ctrl-C started is answered before the link goes: disconnecting at
        // once cut it short (the kernel lane's capture had Disconnect before the Write Response,
        // or even before the Write Request).
        await unsubscribing.finished()
        await session.close()
        if let ended { throw KernelContext.Failure("\(ended)") }
    }
}

/// The unsubscription an interrupt starts, kept so that the command can wait for it.
final class Unsubscribing: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts `body` in a task of its own; a second start (another Ctrl-C) does nothing.
    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { await body() }
        }
    }

    /// Waits until the started unsubscription has finished; returns at once when none started.
    func finished() async {
        await task.withLock { $0 }?.value
    }
}
