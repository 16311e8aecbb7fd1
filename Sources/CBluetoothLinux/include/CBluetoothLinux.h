// CBluetoothLinux: the C view of the Linux Bluetooth socket API, for Swift.
//
// The headers come from Debian's libbluetooth-dev (BlueZ); they are included, never vendored.
// This layer re-exports what the kernel's AF_BLUETOOTH sockets need (address families, protocol
// numbers, sockaddr_hci, sockaddr_l2, the HCI filter, the ioctl numbers) and wraps the calls
// kernel mode makes. Every wrapper returns a non-negative result on success and -errno on
// failure, with errno read right after the call, so Swift never reads a stale errno. Sockets are
// opened non-blocking and close-on-exec: the layer above waits for readiness, never blocks.

#ifndef CBLUETOOTHLINUX_H
#define CBLUETOOTHLINUX_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

/// The size of `struct sockaddr_hci` in octets (bind(2) on AF_BLUETOOTH / BTPROTO_HCI).
unsigned int cbl_sockaddr_hci_size(void);

/// The size of `struct sockaddr_l2` in octets (bind(2)/connect(2) on BTPROTO_L2CAP).
unsigned int cbl_sockaddr_l2_size(void);

// MARK: HCI sockets (Linux include/net/bluetooth/hci_sock.h semantics)

/// socket(AF_BLUETOOTH, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, BTPROTO_HCI): a descriptor, or -errno.
int cbl_hci_socket(void);

/// bind(2) an HCI socket to controller `device` (HCI_DEV_NONE for none) on `channel`
/// (HCI_CHANNEL_RAW, _USER, _MONITOR or _CONTROL): 0, or -errno.
int cbl_hci_bind(int fd, uint16_t device, uint16_t channel);

/// setsockopt(SOL_HCI, HCI_FILTER) on a raw-channel socket: which packet types (bit per H4
/// type), which event codes (bits 0-63) and which command opcode (0: any) reach it. 0, or -errno.
int cbl_hci_set_filter(int fd, uint32_t type_mask, uint32_t event_mask_low, uint32_t event_mask_high,
                       uint16_t opcode);

/// ioctl(HCIGETDEVLIST): fills `ids` with up to `capacity` controller indexes; their count, or -errno.
int cbl_hci_device_list(int fd, uint16_t *ids, uint16_t capacity);

/// ioctl(HCIGETDEVINFO) for controller `device` into `info`: 0, or -errno.
int cbl_hci_device_info(int fd, uint16_t device, struct hci_dev_info *info);

/// ioctl(HCIDEVUP) for controller `device` (needs CAP_NET_ADMIN): 0, or -errno (-EALREADY when
/// it is up already). The legacy way up: on a dual-mode controller it leaves LE off; the
/// management channel's Set Powered after Set Low Energy is how kernel mode powers on.
int cbl_hci_device_up(int fd, uint16_t device);

/// ioctl(HCIDEVDOWN) for controller `device` (needs CAP_NET_ADMIN): 0, or -errno. A controller
/// must be down before its user channel can be bound (host mode).
int cbl_hci_device_down(int fd, uint16_t device);

// MARK: L2CAP sockets

/// socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, BTPROTO_L2CAP): a descriptor, or -errno.
int cbl_l2cap_socket(void);

/// bind(2) an L2CAP socket to the local address `address` (BDADDR_ANY for any controller) of
/// `address_type` (BDADDR_LE_PUBLIC, BDADDR_LE_RANDOM) and fixed channel `cid` (4 for ATT): 0, or -errno.
int cbl_l2cap_bind(int fd, const bdaddr_t *address, uint8_t address_type, uint16_t cid);

/// connect(2) an L2CAP socket to `address` of `address_type` on fixed channel `cid`: 0, or -errno
/// (-EINPROGRESS while a non-blocking connect proceeds: wait until writable, then read SO_ERROR).
int cbl_l2cap_connect(int fd, const bdaddr_t *address, uint8_t address_type, uint16_t cid);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; the peer's address and type into `peer` and
/// `peer_type`. A descriptor, or -errno (-EAGAIN when none is waiting).
int cbl_l2cap_accept(int fd, bdaddr_t *peer, uint8_t *peer_type);

/// getpeername(2) of a connected L2CAP socket: 0, or -errno.
int cbl_l2cap_peer(int fd, bdaddr_t *peer, uint8_t *peer_type);

/// The HCI connection handle of a connected L2CAP socket (L2CAP_CONNINFO), 0x0000...0x0EFF, or
/// -errno (ENOTCONN before the channel is up).
int cbl_l2cap_connection_handle(int fd);

/// listen(2): 0, or -errno.
int cbl_listen(int fd, int backlog);

/// setsockopt(SOL_BLUETOOTH, BT_SECURITY) with `level` (BT_SECURITY_LOW ... _FIPS): 0, or -errno.
int cbl_set_security(int fd, uint8_t level);

/// getsockopt(SOL_BLUETOOTH, BT_SECURITY): the level and the encryption key size in octets. 0, or -errno.
int cbl_get_security(int fd, uint8_t *level, uint8_t *key_size);

/// getsockopt(SOL_BLUETOOTH, BT_RCVMTU or BT_SNDMTU): the MTU in octets, or -errno.
int cbl_get_mtu(int fd, int receive);

/// getsockopt(SOL_SOCKET, SO_ERROR): the pending error as a positive errno (0: none), or -errno.
int cbl_socket_error(int fd);

// MARK: Data

/// send(2) with MSG_NOSIGNAL: the octets sent, or -errno.
ssize_t cbl_send(int fd, const void *bytes, size_t count);

/// recv(2): the octets received (0 at end of stream), or -errno (-EAGAIN when nothing waits).
ssize_t cbl_recv(int fd, void *bytes, size_t capacity);

/// close(2): 0, or -errno.
int cbl_close(int fd);

// MARK: Byte streams (H4 over a tty or TCP; Core v5.4, Vol 4, Part A, 2)

/// read(2): the octets read (0 at end of stream), or -errno (-EAGAIN when nothing waits).
ssize_t cbl_read(int fd, void *bytes, size_t capacity);

/// write(2) on a tty, send(2) with MSG_NOSIGNAL on a socket (no SIGPIPE when the peer is
/// gone; -EPIPE instead): the octets written, possibly fewer than `count`, or -errno.
ssize_t cbl_write(int fd, const void *bytes, size_t count, int is_socket);

/// Whether `fd` is a socket (fstat(2), S_ISSOCK): 1, 0, or -errno.
int cbl_is_socket(int fd);

/// Sets O_NONBLOCK and FD_CLOEXEC on `fd`: 0, or -errno.
int cbl_set_nonblocking(int fd);

// MARK: Readiness on a thread of its own

/// eventfd(2) with EFD_CLOEXEC | EFD_NONBLOCK, counter 0: a descriptor to wake a
/// cbl_wait_readable() with, or -errno.
int cbl_wake_open(void);

/// Adds 1 to the eventfd `wake_fd` (write(2) of 8 octets): 0, or -errno.
int cbl_wake_signal(int wake_fd);

/// Names the calling thread (pthread_setname_np; Linux keeps the first 15 octets, and the name
/// is cut there): 0, or the error number.
int cbl_thread_set_name(const char *name);

/// poll(2) on `fd` for input (or hang-up, or an error) and on `wake_fd` for a wake-up, without a
/// timeout; EINTR is retried. 1 when `fd` is ready, 0 when `wake_fd` was signalled (it is left
/// signalled, so every later wait returns 0 at once), or -errno.
int cbl_wait_readable(int fd, int wake_fd);

/// poll(2) on `fd` for room to write (or hang-up, or an error) and on `wake_fd` for a wake-up,
/// as cbl_wait_readable() does for input: 1 when `fd` is ready, 0 when `wake_fd` was signalled,
/// or -errno.
int cbl_wait_writable(int fd, int wake_fd);

// MARK: Serial ports (termios)

/// open(2) `path` with O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC: a descriptor, or -errno.
int cbl_tty_open(const char *path);

/// ioctl(TIOCEXCL): no further open(2) of the tty succeeds (except with CAP_SYS_ADMIN). 0, or -errno.
int cbl_tty_set_exclusive(int fd);

/// ioctl(TIOCGEXCL): 1 when the tty is in exclusive mode, 0 when not, or -errno.
int cbl_tty_is_exclusive(int fd);

/// The termios speed constant (B9600 ... B4000000) for `baud_rate` in bits per second, or 0
/// when there is none.
unsigned int cbl_tty_speed(unsigned int baud_rate);

/// The baud rate in bits per second of the termios speed constant `speed`, or 0.
unsigned int cbl_tty_baud_rate(unsigned int speed);

/// Raw mode (cfmakeraw: 8 data bits, no parity, no echo, no line editing, no output or input
/// processing), CLOCAL | CREAD, VMIN 1 / VTIME 0, input and output speed `speed` (a constant
/// from cbl_tty_speed), CRTSCTS set when `rts_cts` is non-zero and cleared otherwise, applied
/// with tcsetattr(TCSANOW). 0, or -errno.
int cbl_tty_configure(int fd, unsigned int speed, int rts_cts);

/// A pseudo-terminal (posix_openpt, grantpt, unlockpt): a virtual serial line whose slave's
/// path goes into `slave_path` (NUL-terminated, at most `capacity` octets), for tests and for
/// serving a virtual controller as if on a UART. The master's descriptor (non-blocking,
/// close-on-exec), or -errno.
int cbl_pty_open(char *slave_path, size_t capacity);

/// tcflush(TCIOFLUSH): drops what was received but not read and what was written but not sent.
/// 0, or -errno.
int cbl_tty_flush(int fd);

// MARK: TCP

/// A non-blocking, close-on-exec TCP socket connecting to `host` (a numeric IPv4 or IPv6
/// address, or "localhost" for 127.0.0.1) port `port`: a descriptor once the connection is
/// under way or made (wait until writable, then read SO_ERROR), or -errno (-EINVAL when `host`
/// is not such an address).
int cbl_tcp_connect(const char *host, uint16_t port);

/// A non-blocking, close-on-exec TCP socket bound to `host` (numeric IPv4 or IPv6, or
/// "localhost") port `port` (0: the kernel picks a free one) with SO_REUSEADDR, listening with
/// `backlog`; the port bound into `bound_port`. A descriptor, or -errno.
int cbl_tcp_listen(const char *host, uint16_t port, int backlog, uint16_t *bound_port);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC: a descriptor, or -errno (-EAGAIN when none waits).
int cbl_tcp_accept(int fd);

/// setsockopt(IPPROTO_TCP, TCP_NODELAY, 1): segments go out at once (an HCI command is small
/// and its answer awaited). 0, or -errno.
int cbl_tcp_set_nodelay(int fd);

/// The peer (`peer` non-zero, getpeername) or local (getsockname) address of a TCP socket as
/// "192.0.2.1:9000" or "[2001:db8::1]:9000" into `text` (NUL-terminated, at most `capacity`
/// octets). 0, or -errno.
int cbl_tcp_address(int fd, int peer, char *text, size_t capacity);

#endif
