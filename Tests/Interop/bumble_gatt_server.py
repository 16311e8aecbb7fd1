"""Bumble's host as a GATT server (peripheral) for LinuxBLE's central: the interop lane's
direction (a), driven by Tests/InteropTests/BumbleServerTests.swift.

It serves Heart Rate (Heart Rate Measurement with notifications, Body Sensor Location, the
Heart Rate Control Point) and a vendor service with 128-bit UUIDs: a 300-octet value that a
client must read long (Core v5.4, Vol 3, Part G, 4.8.3), a writable value for a long write
(4.9.4), and an indicating characteristic (4.11). It advertises, reports what it serves, and
then follows the test's commands:

    reports:  advertising {address, name, long_value, body_sensor_location}
              connected {peer}  mtu {mtu}  written {uuid, value}  subscribed {uuid, notify, indicate}
              notified {value}  indicated {value}  disconnected {reason}
    commands: notify {count}  indicate {count}  disconnect {reason}

An `indicated` report comes only after the client's Handle Value Confirmation (Part F, 3.4.7.3).
"""

from __future__ import annotations

import asyncio
import struct
import sys

from bumble.core import AdvertisingData
from bumble.gatt import Characteristic, CharacteristicValue, Service

import interop

UUID_HEART_RATE = "180D"
UUID_HEART_RATE_MEASUREMENT = "2A37"
UUID_BODY_SENSOR_LOCATION = "2A38"
UUID_HEART_RATE_CONTROL_POINT = "2A39"
UUID_VENDOR_SERVICE = "6E3A0001-8D1F-4C55-A1B6-4C696E757842"
UUID_LONG_READ = "6E3A0002-8D1F-4C55-A1B6-4C696E757842"
UUID_LONG_WRITE = "6E3A0003-8D1F-4C55-A1B6-4C696E757842"
UUID_EVENTS = "6E3A0004-8D1F-4C55-A1B6-4C696E757842"

LONG_READ_LENGTH = 300
BODY_SENSOR_LOCATION_WRIST = 0x02  # Heart Rate Service v1.0, 3.2: Wrist


def long_read_value() -> bytes:
    """300 octets that are not all alike, so a part read at the wrong offset shows."""
    return bytes((index * 7 + index // 256) % 256 for index in range(LONG_READ_LENGTH))


def measurement(index: int) -> bytes:
    """Heart Rate Measurement (Heart Rate Service v1.0, 3.1): Flags 0x10 (UINT8 value,
    RR-Interval present), the rate in beats per minute, one RR-Interval in 1/1024 s."""
    bpm = 64 + 3 * index
    return bytes([0x10, bpm]) + struct.pack("<H", round(60 * 1024 / bpm))


async def main(options) -> None:
    commands = interop.Commands()
    transport, device = await interop.attached_device(options.transport, options.name, options.address)
    try:
        await serve(options, device, commands)
    finally:
        await transport.close()


async def serve(options, device, commands: interop.Commands) -> None:
    def on_control_point_write(_connection, value: bytes) -> None:
        interop.report("written", uuid=UUID_HEART_RATE_CONTROL_POINT, value=bytes(value).hex())

    # The long-write target keeps what was written and reads it back.
    long_write_value = [b""]

    def on_long_write(_connection, value: bytes) -> None:
        long_write_value[0] = bytes(value)
        interop.report("written", uuid=UUID_LONG_WRITE, value=bytes(value).hex())

    props = Characteristic.Properties
    readable = Characteristic.Permissions.READABLE
    writeable = Characteristic.Permissions.WRITEABLE

    heart_rate_measurement = Characteristic(UUID_HEART_RATE_MEASUREMENT, props.NOTIFY, Characteristic.Permissions(0), b"")
    body_sensor_location = Characteristic(
        UUID_BODY_SENSOR_LOCATION, props.READ, readable, bytes([BODY_SENSOR_LOCATION_WRIST])
    )
    control_point = Characteristic(
        UUID_HEART_RATE_CONTROL_POINT,
        props.WRITE,
        writeable,
        CharacteristicValue(write=on_control_point_write),
    )
    long_read = Characteristic(UUID_LONG_READ, props.READ, readable, long_read_value())
    long_write = Characteristic(
        UUID_LONG_WRITE,
        props.READ | props.WRITE,
        readable | writeable,
        CharacteristicValue(read=lambda _connection: long_write_value[0], write=on_long_write),
    )
    events = Characteristic(UUID_EVENTS, props.INDICATE, Characteristic.Permissions(0), b"")

    for characteristic, uuid in ((heart_rate_measurement, UUID_HEART_RATE_MEASUREMENT), (events, UUID_EVENTS)):
        characteristic.on(
            characteristic.EVENT_SUBSCRIPTION,
            lambda _bearer, notify, indicate, uuid=uuid: interop.report(
                "subscribed", uuid=uuid, notify=bool(notify), indicate=bool(indicate)
            ),
        )

    device.add_services(
        [
            Service(UUID_HEART_RATE, [heart_rate_measurement, body_sensor_location, control_point]),
            Service(UUID_VENDOR_SERVICE, [long_read, long_write, events]),
        ]
    )

    connected = asyncio.get_running_loop().create_future()
    device.on(device.EVENT_CONNECTION, lambda connection: connected.done() or connected.set_result(connection))

    advertising_data = bytes(
        AdvertisingData(
            [
                (AdvertisingData.FLAGS, bytes([0x06])),
                (AdvertisingData.COMPLETE_LOCAL_NAME, options.name.encode()),
                (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", 0x180D)),
            ]
        )
    )
    await device.start_advertising(advertising_data=advertising_data, advertising_interval_min=100, advertising_interval_max=100)
    interop.report(
        "advertising",
        address=str(device.random_address),
        name=options.name,
        long_value=long_read_value().hex(),
        body_sensor_location=bytes([BODY_SENSOR_LOCATION_WRIST]).hex(),
    )

    connection = await connected
    interop.report("connected", peer=str(connection.peer_address))
    connection.on(connection.EVENT_CONNECTION_ATT_MTU_UPDATE, lambda: interop.report("mtu", mtu=connection.att_mtu))
    disconnected = asyncio.get_running_loop().create_future()
    connection.on(connection.EVENT_DISCONNECTION, lambda reason: disconnected.done() or disconnected.set_result(reason))

    command = await commands.next("notify")
    for index in range(command["count"]):
        value = measurement(index)
        await device.notify_subscribers(heart_rate_measurement, value)
        interop.report("notified", value=value.hex())

    command = await commands.next("indicate")
    for index in range(command["count"]):
        value = struct.pack("<BH", 0xE0 + index, 1000 + index)  # an event code, then a counter
        # Returns once the client's Handle Value Confirmation has arrived.
        await device.indicate_subscribers(events, value)
        interop.report("indicated", value=value.hex())

    command = await commands.next("disconnect")
    await connection.disconnect(reason=command["reason"])
    reason = await asyncio.wait_for(disconnected, 10)
    interop.report("disconnected", reason=reason)


if __name__ == "__main__":
    parsed = interop.arguments(__doc__.split("\n\n")[0]).parse_args()
    sys.exit(interop.run(lambda: main(parsed), parsed.timeout))
