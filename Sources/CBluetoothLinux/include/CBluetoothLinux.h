// CBluetoothLinux: the C view of the Linux Bluetooth socket API, for Swift.
//
// The headers come from Debian's libbluetooth-dev (BlueZ); they are included, never vendored.
// This layer only re-exports what the kernel's AF_BLUETOOTH sockets need: address families,
// protocol numbers, socket addresses (sockaddr_hci, sockaddr_l2), the HCI filter and the
// ioctl numbers. The wrappers that keep errno arrive with kernel mode.

#ifndef CBLUETOOTHLINUX_H
#define CBLUETOOTHLINUX_H

#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

/// The size of `struct sockaddr_hci` in octets (bind(2) on AF_BLUETOOTH / BTPROTO_HCI).
unsigned int cbl_sockaddr_hci_size(void);

/// The size of `struct sockaddr_l2` in octets (bind(2)/connect(2) on BTPROTO_L2CAP).
unsigned int cbl_sockaddr_l2_size(void);

#endif
