"""Bumble's host as a GATT client (central) against LinuxBLE's GATT server on its advertising
peripheral: the interop lane's direction (b), driven by Tests/InteropTests/BumbleClientTests.swift.

It scans for the peripheral's Complete Local Name, connects, exchanges ATT_MTU, discovers every
service, characteristic and descriptor (Core v5.4, Vol 3, Part G, 4.4-4.7), reads every readable
characteristic (long values with Read Blob, 4.8.3), writes the characteristics named on the
command line (a value longer than ATT_MTU - 3 goes as a long write, 4.9.4), subscribes to
notifications and to indications (4.10, 4.11; Bumble confirms each indication), and reports all
it saw:

    reports:  found {address, name}  connected {peer}  mtu {mtu}
              discovered {services: [{uuid, handle, end, characteristics: [{uuid, handle, properties}]}]}
              read {uuid, handle, value}  wrote {uuid, value}  subscribed {uuid, kind}
              notification {uuid, value}  indication {uuid, value}  disconnected {reason}
    commands: disconnect {reason}
"""

from __future__ import annotations

import asyncio
import os
import sys

from bumble.core import UUID
from bumble.device import Peer
from bumble.gatt import Characteristic

import interop


async def main(options) -> None:
    commands = interop.Commands()
    transport, device = await interop.attached_device(options.transport, options.name, options.address)
    try:
        await run_client(options, device, commands)
    finally:
        await transport.close()


async def run_client(options, device, commands: interop.Commands) -> None:
    loop = asyncio.get_running_loop()
    found = loop.create_future()

    def on_advertisement(advertisement) -> None:
        name = advertisement.data.get(advertisement.data.COMPLETE_LOCAL_NAME)
        if name == options.peer_name and not found.done():
            found.set_result(advertisement)

    device.on(device.EVENT_ADVERTISEMENT, on_advertisement)
    await device.start_scanning(active=True, filter_duplicates=True)
    advertisement = await found
    await device.stop_scanning()
    interop.report("found", address=str(advertisement.address), name=options.peer_name)

    connection = await device.connect(advertisement.address, timeout=20)
    interop.report("connected", peer=str(connection.peer_address))
    disconnected = loop.create_future()
    connection.on(connection.EVENT_DISCONNECTION, lambda reason: disconnected.done() or disconnected.set_result(reason))

    peer = Peer(connection)
    mtu = await peer.request_mtu(options.mtu)
    interop.report("mtu", mtu=mtu)
    await peer.discover_all()
    interop.report(
        "discovered",
        services=[
            {
                "uuid": service.uuid.to_hex_str("-"),
                "handle": service.handle,
                "end": service.end_group_handle,
                "characteristics": [
                    {
                        "uuid": characteristic.uuid.to_hex_str("-"),
                        "handle": characteristic.handle,
                        "properties": int(characteristic.properties),
                    }
                    for characteristic in service.characteristics
                ],
            }
            for service in peer.services
        ],
    )

    for service in peer.services:
        for characteristic in service.characteristics:
            if characteristic.properties & Characteristic.Properties.READ:
                value = await peer.read_value(characteristic)
                interop.report(
                    "read", uuid=characteristic.uuid.to_hex_str("-"), handle=characteristic.handle, value=bytes(value).hex()
                )

    for write in options.write:
        uuid, length = write.split("=")
        [characteristic] = peer.get_characteristics_by_uuid(UUID(uuid))
        value = os.urandom(int(length))  # random, so only a real delivery can match
        await peer.write_value(characteristic, value, with_response=True)
        interop.report("wrote", uuid=characteristic.uuid.to_hex_str("-"), value=value.hex())

    for subscription in options.subscribe:
        uuid, kind = subscription.split("=")
        [characteristic] = peer.get_characteristics_by_uuid(UUID(uuid))
        name = characteristic.uuid.to_hex_str("-")
        await peer.subscribe(
            characteristic,
            lambda value, name=name, kind=kind: interop.report(kind, uuid=name, value=bytes(value).hex()),
            prefer_notify=(kind == "notification"),
        )
        interop.report("subscribed", uuid=name, kind=kind)

    command = await commands.next("disconnect")
    await connection.disconnect(reason=command["reason"])
    reason = await asyncio.wait_for(disconnected, 10)
    interop.report("disconnected", reason=reason)


if __name__ == "__main__":
    parser = interop.arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--peer-name", required=True, help="the Complete Local Name to connect to")
    parser.add_argument("--mtu", type=int, default=64, help="the ATT_MTU to ask for (default: %(default)s)")
    parser.add_argument(
        "--write", action="append", default=[], metavar="UUID=LENGTH", help="write LENGTH random octets to UUID"
    )
    parser.add_argument(
        "--subscribe",
        action="append",
        default=[],
        metavar="UUID=KIND",
        help="subscribe to UUID, KIND being notification or indication",
    )
    parsed = parser.parse_args()
    sys.exit(interop.run(lambda: main(parsed), parsed.timeout))
