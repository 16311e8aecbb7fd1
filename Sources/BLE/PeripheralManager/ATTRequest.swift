import Foundation
import Synchronization

/// A read or write of a ``MutableCharacteristic`` whose value the application gives, as Core
/// Bluetooth's `CBATTRequest`, from ``PeripheralManager/requests``. Answer it once with
/// ``PeripheralManager/respond(to:withResult:)``; after the manager's deadline the stack answers
/// Unlikely Error (0x0E) for it.
public final class ATTRequest: Sendable, CustomStringConvertible {
    /// The central asking.
    public let central: Central
    /// The characteristic read or written.
    public let characteristic: MutableCharacteristic
    /// Where in the value the read starts or the write goes, in octets (Read Blob and Prepare
    /// Write carry one, Core v5.4, Vol 3, Part F, 3.4.4.5 and 3.4.6.1; 0 otherwise).
    public let offset: Int
    /// For a write, how the central wrote: `.withResponse` for ATT_WRITE_REQ and the parts of
    /// a queued write (Core v5.4, Vol 3, Part F, 3.4.5.1 and 3.4.6), which wait for
    /// ``PeripheralManager/respond(to:withResult:)``; `.withoutResponse` for ATT_WRITE_CMD and
    /// ATT_SIGNED_WRITE_CMD (3.4.5.3, 3.4.5.4), which the central gets no answer to, so
    /// responding to one does nothing. Nil for a read.
    public let writeType: WriteType?
    private let current: Mutex<Data?>

    init(central: Central, characteristic: MutableCharacteristic, offset: Int, value: Data?, writeType: WriteType?) {
        self.central = central
        self.characteristic = characteristic
        self.offset = offset
        self.writeType = writeType
        current = Mutex(value)
    }

    /// For a write, the octets written; for a read, nil until the application sets the value
    /// from ``offset`` on, before it responds (the stack cuts it to fit the ATT_MTU).
    public var value: Data? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// "read of Characteristic 2A39 ... at 0 by Central ...".
    public var description: String { "request on \(characteristic) at \(offset) by \(central)" }
}
