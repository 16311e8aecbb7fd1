#!/usr/bin/env python3
"""Record the LinuxBLE demo capture: a heart-rate GATT session between two Bumble hosts.

Two Google Bumble hosts run in this one Python process, each on its own Bumble virtual
controller, and the two controllers share one in-process link (bumble.link.LocalLink). No
network, radio or kernel is involved.

  * Peripheral "LinuxBLE HR" advertises (ADV_IND with a scan response) and serves Heart Rate,
    Battery, Device Information and a vendor 128-bit service.
  * Central scans actively, connects, exchanges ATT_MTU (64), discovers every service,
    characteristic and descriptor, reads everything readable (Read Blob for the long value),
    writes the Heart Rate Control Point, does one long write (Prepare Write + Execute Write),
    subscribes to Heart Rate Measurement notifications and to the vendor indication, receives
    a few of each and disconnects.

The capture is the CENTRAL host's HCI traffic, written as btsnoop v1 with datalink 1002 (H4).
It is taken on the host side of the HCI (Bumble's Host.snooper hook), where Bumble's own
direction is right: commands and host ACL data are "sent" (flag bit 0 = 0), events and
controller ACL data "received" (bit 0 = 1). BUMBLE_SNOOPER on a controller-side transport
would invert them (see check_snooper_direction.py beside this script).

Bumble's virtual controller differs from a real one in ways that would make the capture
unrealistic (see Fixtures/captures/README.md). The two controllers are therefore small
subclasses that behave like real controllers where the capture can show it:

  * No extended advertising feature bit, so the hosts use the legacy advertising, scanning
    and connection commands, and the central receives legacy LE Advertising Reports
    (subevent 0x02) rather than extended ones (0x0D).
  * The advertising interval is read in 0.625 ms units (stock Bumble reads milliseconds).
  * Active scanning reports ADV_IND with the advertising data and SCAN_RSP with the
    advertiser's real scan response data (stock Bumble repeats the advertising data).
  * Connection events: data moves only at connection events every connInterval (15 ms), so
    an ATT round trip takes one or two intervals; one Number Of Completed Packets event
    counts the packets sent in each event (stock Bumble answers at once, one per packet).
  * ACL data to the host is fragmented to LE_ACL_Data_Packet_Length (27) octets with
    Packet_Boundary_Flag 0b10 then 0b01 (stock Bumble sends each L2CAP PDU in one packet).
  * Connection handles start at 0x0040.
  * A Disconnect issued by the host completes one connection event after the
    LL_TERMINATE_IND, with reason 0x16 (Connection Terminated By Local Host), as real
    controllers report it (stock Bumble completes at once and echoes the host's reason).

Only the timestamps change from one recording to the next: the addresses are fixed, the
clock starts at 2025-01-01T00:00:00Z, and every value is computed from constants here.

Usage (from the repository root):

    python3 -m venv .build/bumble-venv
    .build/bumble-venv/bin/pip install -r Scripts/bumble/requirements.txt
    .build/bumble-venv/bin/python Scripts/bumble/record_heart_rate.py \
        Fixtures/captures/bumble-heart-rate.btsnoop
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import math
import os
import struct
import sys
import time
from typing import BinaryIO

from bumble import hci, ll
from bumble.att import ATT_Error
from bumble.controller import Controller, LegacyAdvertiser
from bumble.core import UUID
from bumble.device import Advertisement, Device, DeviceConfiguration, Peer
from bumble.gatt import (
    Characteristic,
    CharacteristicValue,
    Descriptor,
    Service,
)
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.profiles.gap import GenericAccessService
from bumble.profiles.gatt_service import GenericAttributeProfileService
from bumble.snoop import Snooper
from bumble.transport.common import AsyncPipeSink

log = logging.getLogger("record_heart_rate")

# ---------------------------------------------------------------------------------------------
# Fixed identities (static random addresses: the two most significant bits are 0b11,
# Core v5.4, Vol 6, Part B, 1.3.2.1), so the capture is the same on every run.
# ---------------------------------------------------------------------------------------------
CENTRAL_ADDRESS = "C0:FF:EE:C0:FF:EE"
PERIPHERAL_ADDRESS = "D0:0D:FE:ED:48:52"  # ends in "HR"
PERIPHERAL_NAME = "LinuxBLE HR"

#: Client ATT_MTU the central asks for (Core v5.4, Vol 3, Part F, 3.4.2.1). Small on purpose,
#: so reading the long value needs Read Blob and the long write needs Prepare Write.
CLIENT_MTU = 64

#: Advertising events (each an ADV_IND report and a SCAN_RSP report) seen before connecting.
ADVERTISEMENTS_BEFORE_CONNECTING = 3

#: Bluetooth SIG "reserved for testing" company identifier (Assigned Numbers, 7.1).
TEST_COMPANY_ID = 0xFFFF

# 16-bit UUIDs from Assigned Numbers, 3.4 (services), 3.8 (characteristics), 3.7 (descriptors).
UUID_HEART_RATE = "180D"
UUID_BATTERY = "180F"
UUID_DEVICE_INFORMATION = "180A"
UUID_HEART_RATE_MEASUREMENT = "2A37"
UUID_BODY_SENSOR_LOCATION = "2A38"
UUID_HEART_RATE_CONTROL_POINT = "2A39"
UUID_BATTERY_LEVEL = "2A19"
UUID_MANUFACTURER_NAME = "2A29"
UUID_MODEL_NUMBER = "2A24"
UUID_USER_DESCRIPTION = "2901"

# Vendor service and characteristics. The last six octets spell "LinuxB" in ASCII.
UUID_VENDOR_SERVICE = "A5F10001-6C1B-4B8E-9E3A-4C696E757842"
UUID_VENDOR_LONG_READ = "A5F10002-6C1B-4B8E-9E3A-4C696E757842"
UUID_VENDOR_LONG_WRITE = "A5F10003-6C1B-4B8E-9E3A-4C696E757842"
UUID_VENDOR_INDICATE = "A5F10004-6C1B-4B8E-9E3A-4C696E757842"

#: GAP Appearance "Heart Rate Sensor: Heart Rate Belt" (category 0x00D, sub-category 0x01;
#: Assigned Numbers, 2.6.2).
APPEARANCE_HEART_RATE_BELT = (0x00D << 6) | 0x01

#: Body Sensor Location 0x01 = Chest (Heart Rate Service v1.0, 3.2).
BODY_SENSOR_LOCATION_CHEST = 0x01

#: Heart Rate Control Point value 0x01 = Reset Energy Expended (Heart Rate Service v1.0, 3.3).
HRCP_RESET_ENERGY_EXPENDED = 0x01
#: ATT error 0x80 "Control Point Not Supported" (Heart Rate Service v1.0, 1.6).
HRCP_ERROR_NOT_SUPPORTED = 0x80

#: The long readable value: 239 octets, more than 3 x ATT_MTU (192) and not a multiple of
#: ATT_MTU - 1 (63), so the client reads it with one Read Request (63 octets) and three Read
#: Blob Requests (63, 63 and 50 octets; Core v5.4, Vol 3, Part G, 4.8.3).
LONG_READ_VALUE = (
    b"LinuxBLE demo peripheral, recorded with Google Bumble. This value is deliberately "
    b"longer than three ATT_MTUs so that a GATT client has to fetch it with Read Blob "
    b"Requests (Core v5.4, Vol 3, Part G, 4.8.3). End of the long value. ----------"
)
assert len(LONG_READ_VALUE) == 239

#: The long write: 144 octets, written as three Prepare Write Requests of at most
#: ATT_MTU - 5 = 59 octets (59 + 59 + 26) and one Execute Write Request
#: (Core v5.4, Vol 3, Part G, 4.9.4).
LONG_WRITE_VALUE = (
    b"config v1: sample_rate=1Hz; rr_intervals=on; energy_expended=on; contact=required; "
    b"units=bpm; owner=LinuxBLE; note=long write via Prepare Write."
)
assert len(LONG_WRITE_VALUE) == 144

#: Heart rates (beats per minute) sent as Heart Rate Measurement notifications.
HEART_RATES = (72, 73, 75, 74, 76)
#: Vendor indications, keyed by the index of the measurement they follow: event code (uint8)
#: and event counter (uint16, little endian).
VENDOR_EVENTS = {1: (0x01, 1), 3: (0x02, 2), 4: (0x01, 3)}

#: Fixed start of the capture's clock, so two recordings differ only in the small measured
#: gaps between packets. btsnoop timestamps count microseconds from 0000-01-01T00:00:00Z;
#: 0x00DCDDB30F2F8000 of them is 1970-01-01T00:00:00Z, and 1 735 689 600 s later is
#: 2025-01-01T00:00:00Z.
BTSNOOP_UNIX_EPOCH_US = 0x00DCDDB30F2F8000
CAPTURE_START_US = BTSNOOP_UNIX_EPOCH_US + 1_735_689_600 * 1_000_000

# Extended advertising (and periodic advertising, which depends on it) off: the host then uses
# the legacy advertising, scanning and connection commands, like a Bluetooth 4.x controller.
LEGACY_LE_FEATURES = Controller.le_features & ~(
    hci.LeFeatureMask.LE_EXTENDED_ADVERTISING | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING
)


# ---------------------------------------------------------------------------------------------
# Capture writer
# ---------------------------------------------------------------------------------------------
class HostSideBtSnooper(Snooper):
    """Writes btsnoop v1 (datalink 1002, H4) records for one Bumble host.

    Installed as ``Host.snooper``, it sees each packet on the host side of the HCI, so
    Bumble's own direction is right: HOST_TO_CONTROLLER gives flag bit 0 = 0 ("sent"),
    CONTROLLER_TO_HOST gives bit 0 = 1 ("received"); bit 1 marks commands and events.
    Timestamps are CAPTURE_START_US plus the monotonic time since the first packet.
    """

    def __init__(self, output: BinaryIO) -> None:
        self.output = output
        self.start_ns: int | None = None
        self.records = 0
        self.output.write(b"btsnoop\0" + struct.pack(">II", 1, self.DataLinkType.H4))

    def snoop(self, hci_packet: bytes, direction: Snooper.Direction) -> None:
        now_ns = time.monotonic_ns()
        if self.start_ns is None:
            self.start_ns = now_ns
        flags = 1 if direction == Snooper.Direction.CONTROLLER_TO_HOST else 0
        if hci_packet[0] in (hci.HCI_COMMAND_PACKET, hci.HCI_EVENT_PACKET):
            flags |= 0x02
        timestamp = CAPTURE_START_US + (now_ns - self.start_ns) // 1000
        self.output.write(
            struct.pack(">IIIIQ", len(hci_packet), len(hci_packet), flags, 0, timestamp)
            + hci_packet
        )
        self.records += 1


# ---------------------------------------------------------------------------------------------
# Controllers
# ---------------------------------------------------------------------------------------------
class CorrectedLegacyAdvertiser(LegacyAdvertiser):
    """Stock legacy advertiser with the advertising interval read in 0.625 ms units.

    Core v5.4, Vol 4, Part E, 7.8.5: Advertising_Interval_Min is N x 0.625 ms. Stock
    Bumble waits N ms between advertising events (0x00A0 gives 160 ms instead of 100 ms).
    """

    def _on_timer_fired(self) -> None:
        self.send_advertising_data()
        self.timer_handle = asyncio.get_running_loop().call_later(
            self.advertising_interval_min * 0.625 / 1000.0, self._on_timer_fired
        )


class LegacyController(Controller):
    """Bumble's virtual controller without the extended advertising feature."""

    le_features = LEGACY_LE_FEATURES

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.le_legacy_advertiser = CorrectedLegacyAdvertiser(self)


@dataclasses.dataclass
class ConnectionEvents:
    """When one connection's connection events happen, and what waits for the next one.

    Core v5.4, Vol 6, Part B, 4.5.1: connection events start every connInterval after the
    anchor point. Data from the host leaves at the next event; data from the peer reaches
    the host at the next event after it arrived, so one ATT round trip takes one or two
    connection intervals, as with a real controller.
    """

    anchor: float  # loop time of the first connection event, in seconds
    interval: float  # connInterval, in seconds
    to_peer: list[hci.HCI_AclDataPacket] = dataclasses.field(default_factory=list)
    to_host: list[bytes] = dataclasses.field(default_factory=list)
    timer: asyncio.TimerHandle | None = None

    def next_event(self, now: float) -> float:
        """Loop time of the first connection event strictly after `now`."""
        if now < self.anchor:
            return self.anchor
        return self.anchor + (math.floor((now - self.anchor) / self.interval) + 1) * self.interval


class RealisticCentralController(LegacyController):
    """The central's controller, corrected where stock Bumble is unlike a real controller."""

    #: RSSI values (dBm) cycled through the advertising reports, so they are not all equal.
    RSSI_PATTERN = (-58, -55, -61, -56)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.report_count = 0
        self.connection_events: dict[int, ConnectionEvents] = {}

    # -- Scanning ------------------------------------------------------------------------------

    def _next_rssi(self) -> int:
        rssi = self.RSSI_PATTERN[self.report_count % len(self.RSSI_PATTERN)]
        self.report_count += 1
        return rssi

    def _scan_response_of(self, advertiser_address: Address) -> bytes | None:
        """The scan response data a real SCAN_REQ to this advertiser would return."""
        for controller in self.link.controllers:
            advertiser = controller.le_legacy_advertiser
            if (
                controller is not self
                and advertiser.enabled
                and advertiser.address == advertiser_address
            ):
                return advertiser.scan_response_data
        return None

    def _send_advertising_report(self, event_type: int, address: Address, data: bytes) -> None:
        self.send_hci_packet(
            hci.HCI_LE_Advertising_Report_Event(
                [
                    hci.HCI_LE_Advertising_Report_Event.Report(
                        event_type=event_type,
                        address_type=address.address_type,
                        address=address,
                        data=data,
                        rssi=self._next_rssi(),
                    )
                ]
            )
        )

    def on_advertising_pdu(self, pdu) -> None:
        if not isinstance(pdu, ll.AdvInd):
            super().on_advertising_pdu(pdu)
            return

        # Core v5.4, Vol 4, Part E, 7.7.65.2: one report for the ADV_IND, and with active
        # scanning (LE_Scan_Type 0x01) a second one for the SCAN_RSP carrying the scan
        # response data. Stock Bumble repeats the advertising data in the SCAN_RSP report.
        if self.le_scan_enable:
            event_type = hci.HCI_LE_Advertising_Report_Event.EventType
            address = pdu.advertiser_address
            self._send_advertising_report(event_type.ADV_IND, address, pdu.data)
            scan_response = self._scan_response_of(address)
            if self.le_scan_type == 0x01 and scan_response is not None:
                self._send_advertising_report(event_type.SCAN_RSP, address, scan_response)

        pending = self.pending_le_connection
        if pending is not None and pending.peer_address == pdu.advertiser_address:
            self.create_le_connection(pdu.advertiser_address)

    # -- Connection events ---------------------------------------------------------------------

    #: Real controllers number their handles in different ways; starting at 0x0040 (as some
    #: do) puts a set bit above the low byte, so a decoder that mixes up the 12-bit
    #: Connection_Handle and the flags shows it (Core v5.4, Vol 4, Part E, 5.4.2).
    FIRST_CONNECTION_HANDLE = 0x0040

    def allocate_connection_handle(self) -> int:
        in_use = {connection.handle for connection in self.le_connections.values()}
        return next(
            handle
            for handle in range(self.FIRST_CONNECTION_HANDLE, 0x0EFF + 1)
            if handle not in in_use
        )

    def create_le_connection(self, peer_address: Address) -> None:
        pending = self.pending_le_connection
        super().create_le_connection(peer_address)
        connection = self.le_connections.get(pending.peer_address)
        if connection is not None:
            # connInterval is Connection_Interval_Min x 1.25 ms (the value the LE Connection
            # Complete event reports); the first event follows one interval later.
            interval = pending.connection_interval_min * 1.25e-3
            now = asyncio.get_running_loop().time()
            self.connection_events[connection.handle] = ConnectionEvents(
                anchor=now + interval, interval=interval
            )

    def _schedule_connection_event(self, handle: int) -> None:
        events = self.connection_events[handle]
        if events.timer is None:
            loop = asyncio.get_running_loop()
            events.timer = loop.call_at(
                events.next_event(loop.time()), self._on_connection_event, handle
            )

    def _on_connection_event(self, handle: int) -> None:
        events = self.connection_events.get(handle)
        connection = self.find_le_connection_by_handle(handle)
        if events is None or connection is None:
            return
        events.timer = None
        to_peer, events.to_peer = events.to_peer, []
        to_host, events.to_host = events.to_host, []

        # Host data goes over the air; one Number Of Completed Packets event counts all the
        # packets of this connection event (Core v5.4, Vol 4, Part E, 7.7.19).
        for packet in to_peer:
            connection.assembler.feed_packet(packet)
        if to_peer:
            self.send_hci_packet(
                hci.HCI_Number_Of_Completed_Packets_Event(
                    connection_handles=[handle], num_completed_packets=[len(to_peer)]
                )
            )

        # Core v5.4, Vol 4, Part E, 5.4.2: an L2CAP PDU reaches the host in ACL packets of at
        # most LE_ACL_Data_Packet_Length octets, the first with Packet_Boundary_Flag 0b10,
        # the others 0b01. Stock Bumble sends each PDU in one packet of any size.
        size = self.le_acl_data_packet_length
        for pdu in to_host:
            for offset in range(0, len(pdu), size):
                fragment = pdu[offset : offset + size]
                pb_flag = 0b10 if offset == 0 else 0b01
                self.send_hci_packet(
                    hci.HCI_AclDataPacket(handle, pb_flag, 0, len(fragment), fragment)
                )

    def on_hci_acl_data_packet(self, packet: hci.HCI_AclDataPacket) -> None:
        if packet.connection_handle not in self.connection_events:
            super().on_hci_acl_data_packet(packet)
            return
        self.connection_events[packet.connection_handle].to_peer.append(packet)
        self._schedule_connection_event(packet.connection_handle)

    def on_link_acl_data(self, sender_address, transport, data: bytes) -> None:
        connection = self.le_connections.get(sender_address)
        if connection is None or connection.handle not in self.connection_events:
            super().on_link_acl_data(sender_address, transport, data)
            return
        self.connection_events[connection.handle].to_host.append(data)
        self._schedule_connection_event(connection.handle)

    # -- Disconnection -------------------------------------------------------------------------

    def on_hci_disconnect_command(self, command: hci.HCI_Disconnect_Command) -> None:
        # Core v5.4, Vol 4, Part E, 7.1.6 and 7.7.5: the peer gets the host's reason in
        # LL_TERMINATE_IND at the next connection event; once the peer has acknowledged it
        # (one event later) the local host gets Disconnection Complete with reason 0x16,
        # Connection Terminated By Local Host. Stock Bumble completes at once and echoes
        # the host's reason.
        handle = command.connection_handle
        connection = self.find_le_connection_by_handle(handle)
        events = self.connection_events.get(handle)
        if connection is None or events is None:
            super().on_hci_disconnect_command(command)
            return
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        loop = asyncio.get_running_loop()
        terminate_at = events.next_event(loop.time())

        def send_terminate() -> None:
            connection.send_ll_control_pdu(ll.TerminateInd(command.reason))

        def complete() -> None:
            if events.timer is not None:
                events.timer.cancel()
            del self.connection_events[handle]
            self.on_le_disconnected(
                connection, hci.HCI_CONNECTION_TERMINATED_BY_LOCAL_HOST_ERROR
            )

        loop.call_at(terminate_at, send_terminate)
        loop.call_at(terminate_at + events.interval, complete)


# ---------------------------------------------------------------------------------------------
# Advertising data (Core v5.4, Vol 3, Part C, 11 and Core Specification Supplement, Part A)
# ---------------------------------------------------------------------------------------------
def ad_structure(ad_type: int, payload: bytes) -> bytes:
    """One AD structure: Length (1 octet, counts AD type + data), AD type, AD data."""
    return bytes([len(payload) + 1, ad_type]) + payload


def uuid128_le(uuid: str) -> bytes:
    """A 128-bit UUID string as its 16 octets, least significant octet first."""
    return bytes.fromhex(uuid.replace("-", ""))[::-1]


ADVERTISING_DATA = b"".join(
    [
        # Flags: LE General Discoverable Mode, BR/EDR Not Supported.
        ad_structure(0x01, bytes([0x06])),
        ad_structure(0x09, PERIPHERAL_NAME.encode()),  # Complete Local Name
        # Complete List of 16-bit Service UUIDs: Heart Rate, Battery.
        ad_structure(0x03, struct.pack("<HH", 0x180D, 0x180F)),
        # Manufacturer Specific Data: company 0xFFFF, then "LB", format 1, flags 0.
        ad_structure(0xFF, struct.pack("<H", TEST_COMPANY_ID) + b"LB\x01\x00"),
    ]
)
assert len(ADVERTISING_DATA) <= 31

SCAN_RESPONSE_DATA = b"".join(
    [
        # Complete List of 128-bit Service UUIDs: the vendor service.
        ad_structure(0x07, uuid128_le(UUID_VENDOR_SERVICE)),
        ad_structure(0x0A, struct.pack("<b", -6)),  # TX Power Level: -6 dBm
    ]
)
assert len(SCAN_RESPONSE_DATA) <= 31


# ---------------------------------------------------------------------------------------------
# Peripheral GATT database
# ---------------------------------------------------------------------------------------------
class HeartRatePeripheral:
    """The peripheral's GATT services (Core v5.4, Vol 3, Part G, 3) and their values."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.energy_expended_kj = 0
        self.long_write_value = b""

        readable = Characteristic.Permissions.READABLE
        writeable = Characteristic.Permissions.WRITEABLE
        props = Characteristic.Properties

        self.heart_rate_measurement = Characteristic(
            UUID_HEART_RATE_MEASUREMENT, props.NOTIFY, Characteristic.Permissions(0), b""
        )
        self.body_sensor_location = Characteristic(
            UUID_BODY_SENSOR_LOCATION,
            props.READ,
            readable,
            bytes([BODY_SENSOR_LOCATION_CHEST]),
        )
        self.control_point = Characteristic(
            UUID_HEART_RATE_CONTROL_POINT,
            props.WRITE,
            writeable,
            CharacteristicValue(write=self.on_control_point_write),
        )
        self.battery_level = Characteristic(
            UUID_BATTERY_LEVEL, props.READ | props.NOTIFY, readable, bytes([87])
        )
        self.manufacturer_name = Characteristic(
            UUID_MANUFACTURER_NAME, props.READ, readable, b"LinuxBLE Project"
        )
        self.model_number = Characteristic(
            UUID_MODEL_NUMBER, props.READ, readable, b"HR-Demo-1"
        )
        self.long_read = Characteristic(
            UUID_VENDOR_LONG_READ,
            props.READ,
            readable,
            LONG_READ_VALUE,
            descriptors=[self.user_description(b"Long readable value")],
        )
        self.long_write = Characteristic(
            UUID_VENDOR_LONG_WRITE,
            props.WRITE,
            writeable,
            CharacteristicValue(write=self.on_long_write),
            descriptors=[self.user_description(b"Long write target")],
        )
        self.vendor_indicate = Characteristic(
            UUID_VENDOR_INDICATE,
            props.INDICATE,
            Characteristic.Permissions(0),
            b"",
            descriptors=[self.user_description(b"Event indications")],
        )

        device.add_services(
            [
                # GAP first, then GATT (Service Changed, Client Supported Features and
                # Database Hash), as most real servers order them.
                GenericAccessService(PERIPHERAL_NAME, APPEARANCE_HEART_RATE_BELT),
                GenericAttributeProfileService(),
                Service(
                    UUID_HEART_RATE,
                    [self.heart_rate_measurement, self.body_sensor_location, self.control_point],
                ),
                Service(UUID_BATTERY, [self.battery_level]),
                Service(UUID_DEVICE_INFORMATION, [self.manufacturer_name, self.model_number]),
                Service(
                    UUID_VENDOR_SERVICE,
                    [self.long_read, self.long_write, self.vendor_indicate],
                ),
            ]
        )

    @staticmethod
    def user_description(text: bytes) -> Descriptor:
        """A readable Characteristic User Description descriptor (Vol 3, Part G, 3.3.3.2)."""
        return Descriptor(UUID_USER_DESCRIPTION, Descriptor.READABLE, text)

    def on_control_point_write(self, _connection, value: bytes) -> None:
        if value != bytes([HRCP_RESET_ENERGY_EXPENDED]):
            raise ATT_Error(HRCP_ERROR_NOT_SUPPORTED)
        self.energy_expended_kj = 0

    def on_long_write(self, _connection, value: bytes) -> None:
        self.long_write_value = value

    def heart_rate_measurement_value(self, index: int, bpm: int) -> bytes:
        """Heart Rate Measurement (Heart Rate Service v1.0, 3.1): Flags, then fields.

        Flags: bit 0 = 0 (UINT8 heart rate), bits 1-2 = 0b11 (sensor contact supported and
        detected), bit 3 = Energy Expended present (every third value), bit 4 = RR-Interval
        present (all but the last value). RR-Interval is in 1/1024 s.
        """
        flags = 0x06
        fields = bytes([bpm])
        if index % 3 == 2:
            flags |= 0x08
            self.energy_expended_kj += 1
            fields += struct.pack("<H", self.energy_expended_kj)
        if index < len(HEART_RATES) - 1:
            flags |= 0x10
            fields += struct.pack("<H", round(60 * 1024 / bpm))
        return bytes([flags]) + fields


# ---------------------------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------------------------
def make_device(name: str, address: str, controller: Controller) -> Device:
    """A Bumble host on `controller` with a static random address and no default services."""
    config = DeviceConfiguration()
    config.name = name
    config.address = Address(address)
    # The peripheral adds GAP (with an Appearance) and GATT itself, in the usual order.
    config.gap_service_enabled = False
    config.gatt_service_enabled = False
    host = Host(controller_source=controller, controller_sink=AsyncPipeSink(controller))
    return Device(config=config, host=host)


def check(condition: bool, message: str) -> None:
    """Stops the recording when the session did not go as planned."""
    if not condition:
        raise RuntimeError(message)


async def record(output_path: str) -> dict[str, int]:
    """Runs the session and writes the central's HCI traffic to `output_path`.

    Returns the number of HCI packets written and of notifications and indications the
    central received.
    """
    link = LocalLink()
    central_controller = RealisticCentralController("central", link=link)
    peripheral_controller = LegacyController("peripheral", link=link)

    central = make_device("LinuxBLE central", CENTRAL_ADDRESS, central_controller)
    peripheral = make_device(PERIPHERAL_NAME, PERIPHERAL_ADDRESS, peripheral_controller)
    server = HeartRatePeripheral(peripheral)

    counts = {"notifications": 0, "indications": 0}
    with open(output_path, "wb") as capture:
        snooper = HostSideBtSnooper(capture)
        central.host.snooper = snooper

        await peripheral.power_on()
        await central.power_on()

        # Advertise every 100 ms (0x00A0 x 0.625 ms).
        await peripheral.start_advertising(
            advertising_data=ADVERTISING_DATA,
            scan_response_data=SCAN_RESPONSE_DATA,
            advertising_interval_min=100,
            advertising_interval_max=100,
        )

        # Active scan until three complete advertisements (ADV_IND + SCAN_RSP) were seen.
        seen = asyncio.Queue[Advertisement]()

        def on_advertisement(advertisement: Advertisement) -> None:
            if advertisement.address == Address(PERIPHERAL_ADDRESS):
                seen.put_nowait(advertisement)

        central.on(central.EVENT_ADVERTISEMENT, on_advertisement)
        await central.start_scanning(active=True, filter_duplicates=False)
        for _ in range(ADVERTISEMENTS_BEFORE_CONNECTING):
            advertisement = await asyncio.wait_for(seen.get(), 5)
            log.info("advertisement: %s", advertisement.data)
        await central.stop_scanning()
        central.remove_listener(central.EVENT_ADVERTISEMENT, on_advertisement)

        connection = await central.connect(PERIPHERAL_ADDRESS, timeout=5)
        peer = Peer(connection)
        mtu = await peer.request_mtu(CLIENT_MTU)
        log.info("ATT_MTU %d", mtu)

        await peer.discover_all()

        # Read every readable characteristic value and every User Description descriptor.
        for service in peer.services:
            for characteristic in service.characteristics:
                if characteristic.properties & Characteristic.Properties.READ:
                    value = await peer.read_value(characteristic)
                    log.info("read %s: %d octets", characteristic.uuid, len(value))
                    if characteristic.uuid == UUID(UUID_VENDOR_LONG_READ):
                        check(value == LONG_READ_VALUE, "long read returned another value")
                for descriptor in characteristic.descriptors:
                    if descriptor.type == UUID(UUID_USER_DESCRIPTION):
                        await peer.read_value(descriptor)

        [control_point] = peer.get_characteristics_by_uuid(
            UUID(UUID_HEART_RATE_CONTROL_POINT)
        )
        await peer.write_value(
            control_point, bytes([HRCP_RESET_ENERGY_EXPENDED]), with_response=True
        )

        [long_write] = peer.get_characteristics_by_uuid(UUID(UUID_VENDOR_LONG_WRITE))
        await peer.write_value(long_write, LONG_WRITE_VALUE, with_response=True)
        check(server.long_write_value == LONG_WRITE_VALUE, "long write stored another value")

        received = asyncio.Queue[tuple[str, bytes]]()
        [measurement] = peer.get_characteristics_by_uuid(
            UUID(UUID_HEART_RATE_MEASUREMENT)
        )
        [events] = peer.get_characteristics_by_uuid(UUID(UUID_VENDOR_INDICATE))
        await peer.subscribe(
            measurement, lambda value: received.put_nowait(("notification", value))
        )
        await peer.subscribe(
            events,
            lambda value: received.put_nowait(("indication", value)),
            prefer_notify=False,
        )

        # The peripheral sends one measurement a second, and an event after some of them.
        for index, bpm in enumerate(HEART_RATES):
            if index:
                await asyncio.sleep(1.0)
            sent = server.heart_rate_measurement_value(index, bpm)
            await peripheral.notify_subscribers(server.heart_rate_measurement, sent)
            kind, value = await asyncio.wait_for(received.get(), 5)
            check((kind, value) == ("notification", sent), "notification lost or changed")
            counts["notifications"] += 1
            if index in VENDOR_EVENTS:
                code, counter = VENDOR_EVENTS[index]
                sent = struct.pack("<BH", code, counter)
                # Returns once the central's Handle Value Confirmation has arrived.
                await peripheral.indicate_subscribers(server.vendor_indicate, sent)
                kind, value = await asyncio.wait_for(received.get(), 5)
                check((kind, value) == ("indication", sent), "indication lost or changed")
                counts["indications"] += 1

        await asyncio.sleep(0.5)
        await connection.disconnect()
        await asyncio.sleep(0.1)
        counts["records"] = snooper.records
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "output",
        nargs="?",
        default="Fixtures/captures/bumble-heart-rate.btsnoop",
        help="btsnoop file to write (default: %(default)s)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log Bumble's debug output")
    arguments = parser.parse_args()
    logging.basicConfig(
        level=logging.DEBUG if arguments.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    # Write beside the target and rename at the end, so a failed run leaves no half capture.
    partial = arguments.output + ".partial"
    counts = asyncio.run(record(partial))
    os.replace(partial, arguments.output)
    print(
        f"wrote {arguments.output}: {counts['records']} HCI packets, "
        f"{counts['notifications']} notifications, {counts['indications']} indications"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
