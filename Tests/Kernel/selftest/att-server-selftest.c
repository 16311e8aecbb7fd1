/* att-server-selftest: the kernel lane's SELF-TEST peer. It is NOT LinuxBLE's GATT server and
 * proves nothing about it: it only shows that the lane's guest carries ATT between two BlueZ
 * controllers over real kernel L2CAP sockets, so that a failing blectl scenario can be told
 * apart from a broken lane. LinuxBLE's own server (`blectl serve`) takes over as the peer in the
 * scenarios that need it. Adapted from the team's VM rig.
 *
 * usage: att-server-selftest LOCAL-BDADDR [CONNECTIONS=1]
 *
 * Listens on the LE fixed ATT channel (an AF_BLUETOOTH / BTPROTO_L2CAP SOCK_SEQPACKET socket
 * bound to {LOCAL-BDADDR, BDADDR_LE_PUBLIC, CID 4}), accepts CONNECTIONS links one after the
 * other, and answers from a fixed three-attribute database:
 *   0x0001 Primary Service 0x180F (Battery), End Group Handle 0x0003
 *   0x0002 Characteristic: Read, value handle 0x0003, UUID 0x2A19 (Battery Level)
 *   0x0003 Battery Level = 0x64 (100 %)
 * Exchange MTU Request -> Response (Server Rx MTU 247); Read By Group Type, Read By Type and
 * Read from that table, Attribute Not Found past it; Find Information -> Attribute Not Found;
 * Write Request -> Write Response (the value is not kept); any other request -> Request Not
 * Supported. Each PDU in and out is printed in hex. Exits 0 after CONNECTIONS links closed.
 * Build (kernel-test.sh does it): gcc -O2 -static (headers: libbluetooth-dev).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/l2cap.h>

#define ATT_CID 4
#define SERVER_RX_MTU 247

static int parse_bdaddr(const char *s, bdaddr_t *ba)
{
	unsigned b[6];
	char tail;
	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[5], &b[4], &b[3], &b[2], &b[1], &b[0], &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		ba->b[i] = (uint8_t)b[i];
	}
	return 0;
}

static void print_pdu(const char *direction, const uint8_t *p, size_t n)
{
	printf("selftest-server %s %zu:", direction, n);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", p[i]);
	printf("\n");
	fflush(stdout);
}

static void send_pdu(int fd, const uint8_t *p, size_t n)
{
	print_pdu(">>", p, n);
	if (write(fd, p, n) < 0)
		printf("selftest-server write: %s\n", strerror(errno));
}

static void send_error(int fd, uint8_t request, uint16_t handle, uint8_t code)
{
	uint8_t r[5] = { 0x01, request, handle & 0xff, handle >> 8, code };
	send_pdu(fd, r, sizeof(r));
}

static void serve(int fd)
{
	uint8_t buf[SERVER_RX_MTU];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) { printf("selftest-server read: %s\n", strerror(errno)); return; }
		if (n == 0) { printf("selftest-server: the peer disconnected\n"); return; }
		print_pdu("<<", buf, (size_t)n);
		uint8_t opcode = buf[0];
		uint16_t start = n >= 3 ? (uint16_t)(buf[1] | buf[2] << 8) : 0;
		switch (opcode) {
		case 0x02: { /* Exchange MTU Request */
			uint8_t r[3] = { 0x03, SERVER_RX_MTU & 0xff, SERVER_RX_MTU >> 8 };
			send_pdu(fd, r, sizeof(r));
			break;
		}
		case 0x10: /* Read By Group Type Request: one service, 0x0001..0x0003, UUID 0x180F */
			if (start <= 1) {
				uint8_t r[] = { 0x11, 6, 0x01, 0x00, 0x03, 0x00, 0x0f, 0x18 };
				send_pdu(fd, r, sizeof(r));
			} else
				send_error(fd, opcode, start, 0x0a);
			break;
		case 0x08: /* Read By Type Request: the characteristic declaration at 0x0002 */
			if (start <= 2) {
				uint8_t r[] = { 0x09, 7, 0x02, 0x00, 0x02, 0x03, 0x00, 0x19, 0x2a };
				send_pdu(fd, r, sizeof(r));
			} else
				send_error(fd, opcode, start, 0x0a);
			break;
		case 0x04: /* Find Information Request */
			send_error(fd, opcode, start, 0x0a);
			break;
		case 0x0a: /* Read Request */
			if (start == 3) {
				uint8_t r[] = { 0x0b, 0x64 };
				send_pdu(fd, r, sizeof(r));
			} else
				send_error(fd, opcode, start, 0x01);
			break;
		case 0x12: { /* Write Request */
			uint8_t r[] = { 0x13 };
			send_pdu(fd, r, sizeof(r));
			break;
		}
		default: /* commands (bit 6) and confirmations get no answer */
			if (!(opcode & 0x40) && opcode != 0x1e)
				send_error(fd, opcode, 0, 0x06);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s LOCAL-BDADDR [CONNECTIONS]\n", argv[0]);
		return 2;
	}
	int connections = argc > 2 ? atoi(argv[2]) : 1;
	struct sockaddr_l2 addr = { 0 };
	addr.l2_family = AF_BLUETOOTH;
	addr.l2_cid = htobs(ATT_CID);
	addr.l2_bdaddr_type = BDADDR_LE_PUBLIC;
	if (parse_bdaddr(argv[1], &addr.l2_bdaddr)) { fprintf(stderr, "bad address: %s\n", argv[1]); return 2; }

	int s = socket(AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP);
	if (s < 0) { perror("socket(AF_BLUETOOTH)"); return 1; }
	if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0) { perror("bind"); return 1; }
	if (listen(s, 1) < 0) { perror("listen"); return 1; }
	printf("selftest-server: listening on %s (LE public, ATT CID 4)\n", argv[1]);
	fflush(stdout);

	for (int c = 0; c < connections; c++) {
		struct sockaddr_l2 peer = { 0 };
		socklen_t len = sizeof(peer);
		int fd = accept(s, (struct sockaddr *)&peer, &len);
		if (fd < 0) { perror("accept"); return 1; }
		printf("selftest-server: accepted %02X:%02X:%02X:%02X:%02X:%02X type %u\n",
		       peer.l2_bdaddr.b[5], peer.l2_bdaddr.b[4], peer.l2_bdaddr.b[3],
		       peer.l2_bdaddr.b[2], peer.l2_bdaddr.b[1], peer.l2_bdaddr.b[0], peer.l2_bdaddr_type);
		fflush(stdout);
		serve(fd);
		close(fd);
	}
	close(s);
	printf("selftest-server: done\n");
	return 0;
}
