"""Bumble's host as the GATT client of `make bench`'s host-stack rows (Sources/BLEBenchmarks).

It attaches to a controller of LinuxBLE's virtual radio (`--transport tcp-client:127.0.0.1:PORT`),
connects to the peripheral at `--peer` (LinuxBLE's GATT server on the same radio) with a 7.5 ms
connection interval, exchanges ATT_MTU, discovers the database, and then:

1. reads the characteristic `--read-uuid` with one Read Request at a time (Core v5.4, Vol 3,
   Part F, 3.3.2: one outstanding request), `--warm-up` times untimed, then `--rounds` rounds of
   `--reads` each, timing each round with time.perf_counter;
2. subscribes to the notifications of `--notify-uuid` and times, per round of `--notifications`
   arrivals, the span from the round's first notification to its last (the server sends
   `--warm-up` first, then the rounds, without a pause).

Each round is one JSON line on standard output:
    {"event": "reads", "count": N, "seconds": S}
    {"event": "notifications", "count": N, "seconds": S}   (S spans N - 1 intervals)
then {"event": "subscribed"} before the notifications and {"event": "done"} at the end. Any
failure is {"event": "failed", "reason": ...} and exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time

from bumble.core import UUID
from bumble.device import ConnectionParametersPreferences, Device, DeviceConfiguration, Peer
from bumble.hci import Address, Phy
from bumble.transport import open_transport


def report(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def bench(options) -> None:
    transport = await open_transport(options.transport)
    try:
        configuration = DeviceConfiguration()
        configuration.name = "Bumble bench"
        configuration.address = Address(options.address)
        device = Device.from_config_with_hci(configuration, transport.source, transport.sink)
        await device.power_on()

        # 7.5 ms (the shortest LE interval), as LinuxBLE's own client asks for.
        preferences = ConnectionParametersPreferences(
            connection_interval_min=7.5, connection_interval_max=7.5, supervision_timeout=1000
        )
        connection = await device.connect(
            Address(options.peer), connection_parameters_preferences={Phy.LE_1M: preferences}, timeout=20
        )
        peer = Peer(connection)
        await peer.request_mtu(247)
        await peer.discover_all()
        [readable] = peer.get_characteristics_by_uuid(UUID(options.read_uuid))
        [notifying] = peer.get_characteristics_by_uuid(UUID(options.notify_uuid))

        for _ in range(options.warm_up):
            await peer.read_value(readable)
        for _ in range(options.rounds):
            start = time.perf_counter()
            for _ in range(options.reads):
                await peer.read_value(readable)
            report("reads", count=options.reads, seconds=time.perf_counter() - start)

        expected = options.warm_up + options.rounds * options.notifications
        arrivals: list[float] = []
        all_arrived = asyncio.get_running_loop().create_future()

        def on_notification(_value: bytes) -> None:
            arrivals.append(time.perf_counter())
            if len(arrivals) == expected and not all_arrived.done():
                all_arrived.set_result(None)

        await peer.subscribe(notifying, on_notification, prefer_notify=True)
        report("subscribed")
        await asyncio.wait_for(all_arrived, 120)
        for index in range(options.rounds):
            first = options.warm_up + index * options.notifications
            last = first + options.notifications - 1
            report("notifications", count=options.notifications, seconds=arrivals[last] - arrivals[first])

        await connection.disconnect()
        report("done")
    finally:
        await transport.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transport", required=True, help="e.g. tcp-client:127.0.0.1:PORT")
    parser.add_argument("--address", default="F2:4C:42:42:4E:01", help="this host's static random address")
    parser.add_argument("--peer", required=True, help="the peripheral's static random address")
    parser.add_argument("--read-uuid", default="2A38", help="the characteristic to read (default: %(default)s)")
    parser.add_argument("--notify-uuid", default="2A37", help="the characteristic notified (default: %(default)s)")
    parser.add_argument("--reads", type=int, default=2000, help="Read Requests per round")
    parser.add_argument("--notifications", type=int, default=2000, help="notifications per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm-up", type=int, default=200, help="untimed reads, and notifications, first")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before giving up")
    options = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        asyncio.run(asyncio.wait_for(bench(options), options.timeout))
    except Exception as error:  # noqa: BLE001 - any failure becomes a report and a status
        logging.exception("bench failed")
        report("failed", reason=f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
