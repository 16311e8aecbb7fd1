/* pairing-agent: answers the kernel's pairing questions on the management channel, for the
 * kernel lane's guest (there is no bluetoothd in it).
 *
 * usage: pairing-agent [-q]          (-q: no log lines)
 *
 * Pitfall 9 (Tests/Kernel/README.md, "Pitfalls"): this kernel asks user space to
 * confirm even Just Works pairing (an mgmt User Confirmation Request with hint 1, on both sides).
 * With nobody to answer, pairing stalls until the 30 s SMP timeout and the L2CAP sockets get
 * EACCES. This program binds an AF_BLUETOOTH HCI socket to HCI_CHANNEL_CONTROL (mgmt) for every
 * controller and accepts:
 *   User Confirmation Request (event 0x000F) -> User Confirmation Reply (command 0x001C)
 *   User Passkey Request      (event 0x0010) -> User Passkey Reply (command 0x001E), passkey 000000
 * It runs until killed. Adapted from the team's VM rig.
 * Build (build-guest.sh does it): gcc -O2 -static -o pairing-agent pairing-agent.c
 * Headers: libbluetooth-dev.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>

/* The mgmt packet header: opcode or event code, controller index, parameter length (LE). */
struct __attribute__((packed)) mgmt_header { uint16_t code, index, len; };

#define MGMT_EV_USER_CONFIRM_REQUEST 0x000f
#define MGMT_EV_USER_PASSKEY_REQUEST 0x0010
#define MGMT_OP_USER_CONFIRM_REPLY   0x001c
#define MGMT_OP_USER_PASSKEY_REPLY   0x001e
#define ADDR_INFO_LEN 7 /* bdaddr (6) + address type (1) */

static void send_command(int fd, uint16_t opcode, uint16_t index, const uint8_t *params, uint16_t len)
{
	uint8_t packet[sizeof(struct mgmt_header) + 16];
	struct mgmt_header h = { htobs(opcode), htobs(index), htobs(len) };
	if (len > sizeof(packet) - sizeof(h))
		return;
	memcpy(packet, &h, sizeof(h));
	memcpy(packet + sizeof(h), params, len);
	if (write(fd, packet, sizeof(h) + len) < 0)
		perror("pairing-agent: write");
}

int main(int argc, char **argv)
{
	int quiet = argc > 1 && !strcmp(argv[1], "-q");
	int fd = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
	if (fd < 0) { perror("pairing-agent: socket(AF_BLUETOOTH)"); return 1; }
	struct sockaddr_hci a = { 0 };
	a.hci_family = AF_BLUETOOTH;
	a.hci_dev = HCI_DEV_NONE;
	a.hci_channel = HCI_CHANNEL_CONTROL;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) { perror("pairing-agent: bind(HCI_CHANNEL_CONTROL)"); return 1; }
	if (!quiet) { printf("pairing-agent: ready\n"); fflush(stdout); }
	uint8_t buf[1024];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) { perror("pairing-agent: read"); return 1; }
		if (n < (ssize_t)sizeof(struct mgmt_header) + ADDR_INFO_LEN)
			continue;
		struct mgmt_header h;
		memcpy(&h, buf, sizeof(h));
		uint16_t event = btohs(h.code), index = btohs(h.index);
		const uint8_t *addr = buf + sizeof(h);
		if (event != MGMT_EV_USER_CONFIRM_REQUEST && event != MGMT_EV_USER_PASSKEY_REQUEST)
			continue;
		if (!quiet) {
			printf("pairing-agent: hci%u %s from %02X:%02X:%02X:%02X:%02X:%02X: accepted\n", index,
			       event == MGMT_EV_USER_CONFIRM_REQUEST ? "user confirmation request" : "passkey request",
			       addr[5], addr[4], addr[3], addr[2], addr[1], addr[0]);
			fflush(stdout);
		}
		if (event == MGMT_EV_USER_CONFIRM_REQUEST) {
			send_command(fd, MGMT_OP_USER_CONFIRM_REPLY, index, addr, ADDR_INFO_LEN);
		} else {
			uint8_t reply[ADDR_INFO_LEN + 4] = { 0 }; /* address info, passkey 0 (LE 32-bit) */
			memcpy(reply, addr, ADDR_INFO_LEN);
			send_command(fd, MGMT_OP_USER_PASSKEY_REPLY, index, reply, sizeof(reply));
		}
	}
}
