"""What every interop peer script shares: its command line, its JSON-line reports, the
commands the Swift test sends it, and a Bumble host attached to the virtual controller that
LinuxBLE's radio serves.

A peer script talks to the Swift test (Tests/InteropTests) in JSON lines:

- standard output: one report per line, `{"event": NAME, ...}`, flushed at once, with octet
  strings as lowercase hex and UUIDs in Bumble's hex form ("180D",
  "A5F10001-6C1B-4B8E-9E3A-4C696E757842");
- standard input: one command per line, `{"command": NAME, ...}`;
- standard error: Bumble's log, which the Swift test copies into its own output.

Every script ends by itself after `--timeout` seconds, so a peer never outlives a test that
forgot it (the test also kills it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from typing import Any

from bumble.device import Device, DeviceConfiguration
from bumble.hci import Address
from bumble.transport import open_transport


def arguments(description: str) -> argparse.ArgumentParser:
    """The options every peer takes; a script adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--transport",
        required=True,
        help="Bumble transport name of the controller, e.g. tcp-client:127.0.0.1:PORT",
    )
    parser.add_argument(
        "--address", required=True, help="this host's static random address, e.g. F1:22:33:44:55:66"
    )
    parser.add_argument("--name", required=True, help="the GAP Device Name this host uses")
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds after which the script gives up (default: %(default)s)",
    )
    return parser


def report(event: str, **fields: Any) -> None:
    """Writes one report line on standard output."""
    print(json.dumps({"event": event, **fields}, separators=(",", ":")), flush=True)


class Commands:
    """The test's commands, read line by line from standard input."""

    def __init__(self) -> None:
        self._reader: asyncio.StreamReader | None = None

    async def _open(self) -> asyncio.StreamReader:
        if self._reader is None:
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader()
            await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
            self._reader = reader
        return self._reader

    async def next(self, expected: str) -> dict[str, Any]:
        """The next command, which must be `expected`; raises when the test sent another or
        closed standard input."""
        reader = await self._open()
        line = await reader.readline()
        if not line:
            raise RuntimeError(f"standard input ended while waiting for the command {expected!r}")
        command = json.loads(line)
        if command.get("command") != expected:
            raise RuntimeError(f"expected the command {expected!r}, got {command!r}")
        return command


async def attached_device(transport_name: str, name: str, address: str):
    """Opens the transport and powers a Bumble host on it, with the given static random
    address and GAP name (Bumble adds its GAP and GATT services). Returns (transport, device);
    close the transport at the end."""
    transport = await open_transport(transport_name)
    configuration = DeviceConfiguration()
    configuration.name = name
    configuration.address = Address(address)
    device = Device.from_config_with_hci(configuration, transport.source, transport.sink)
    await device.power_on()
    return transport, device


def run(main, timeout: float) -> int:
    """Runs `main()` with a deadline; returns the exit status (0 when it completed)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(asyncio.wait_for(main(), timeout))
    except asyncio.TimeoutError:
        report("failed", reason=f"gave up after {timeout} s")
        return 2
    except Exception as error:  # noqa: BLE001 - any failure becomes a report and a status
        logging.exception("peer failed")
        report("failed", reason=f"{type(error).__name__}: {error}")
        return 1
    return 0
