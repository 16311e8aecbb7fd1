#!/usr/bin/env python3
"""Show which btsnoop direction flags Bumble's snoopers write, on each side of the HCI.

Why this exists: record_heart_rate.py snoops with Bumble's Host.snooper hook instead of the
BUMBLE_SNOOPER environment variable. BUMBLE_SNOOPER wraps a *transport*; on a transport that
a controller serves (tcp-server:, pty:, ... as in `bumble.apps.controllers`), the packets the
transport receives are the host's commands, yet the wrapper labels everything it receives
CONTROLLER_TO_HOST. This script records the same power-on sequence both ways and prints the
first packets of each file, as tshark shows them:

  host side (Host.snooper)            "Sent Reset", "Rcvd Command Complete (Reset)"  - right
  controller side (BUMBLE_SNOOPER)    "Rcvd Reset", "Sent Command Complete (Reset)"  - inverted

btsnoop packet flags (bit 0: 0 = sent, 1 = received; bit 1: command or event) are those of
the format's original definition; datalink 1002 is H4 (Core v5.4, Vol 4, Part A, 2).

Usage: .build/bumble-venv/bin/python Scripts/bumble/check_snooper_direction.py [--port N]
It uses one TCP port on 127.0.0.1 (default 17011) and writes two files under /tmp.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import struct
import subprocess
import sys

from bumble.controller import Controller
from bumble.device import Device
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport import open_transport

HOST_SIDE = "/tmp/bumble-snoop-host-side.btsnoop"
CONTROLLER_SIDE = "/tmp/bumble-snoop-controller-side.btsnoop"


async def record(port: int) -> None:
    # The controller serves a TCP transport wrapped by BUMBLE_SNOOPER, as the
    # `bumble.apps.controllers` app would; the host connects without a wrapper.
    os.environ["BUMBLE_SNOOPER"] = f"btsnoop:file:{CONTROLLER_SIDE}"
    controller_transport = await open_transport(f"tcp-server:127.0.0.1:{port}")
    del os.environ["BUMBLE_SNOOPER"]
    Controller(
        "controller",
        host_source=controller_transport.source,
        host_sink=controller_transport.sink,
        link=LocalLink(),
    )
    host_transport = await open_transport(f"tcp-client:127.0.0.1:{port}")
    device = Device.with_hci(
        "host", "C0:FF:EE:C0:FF:EE", host_transport.source, host_transport.sink
    )
    with open(HOST_SIDE, "wb") as host_file:
        device.host.snooper = BtSnooper(host_file)
        await device.power_on()
    await host_transport.close()
    await controller_transport.close()


def first_records(path: str, count: int = 4) -> list[tuple[int, int]]:
    """(flags, H4 packet type) of the first records of a btsnoop file."""
    with open(path, "rb") as capture:
        data = capture.read()
    records, offset = [], 16
    while offset + 24 <= len(data) and len(records) < count:
        _, included, flags, _, _ = struct.unpack_from(">IIIIQ", data, offset)
        records.append((flags, data[offset + 24]))
        offset += 24 + included
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=17011, help="TCP port on 127.0.0.1")
    arguments = parser.parse_args()
    asyncio.run(record(arguments.port))

    packet_names = {1: "command", 2: "ACL data", 4: "event"}
    for label, path in (("host side", HOST_SIDE), ("controller side", CONTROLLER_SIDE)):
        print(f"{label}: {path}")
        for flags, packet_type in first_records(path):
            direction = "received" if flags & 1 else "sent"
            print(f"  flags 0x{flags:02x} = {direction:8}  {packet_names.get(packet_type)}")
        if shutil.which("tshark"):
            fields = ["-e", "frame.number", "-e", "hci_h4.direction", "-e", "_ws.col.Info"]
            shown = subprocess.run(
                ["tshark", "-r", path, "-c", "4", "-T", "fields", *fields],
                capture_output=True,
                text=True,
                check=False,
            )
            print("  tshark: " + "\n  tshark: ".join(shown.stdout.strip().splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
