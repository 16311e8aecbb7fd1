// What `import BLE` alone gives an app besides this module's own types: the Bluetooth UUID and
// address values of BLECore, and the in-process virtual radio, so that a central and a
// peripheral in one process (tests, demos, examples) can meet on it without Bluetooth hardware.

@_exported import struct BLECore.BluetoothAddress
@_exported import struct BLECore.BluetoothUUID
@_exported import class VirtualRadio.VirtualRadio
