#define _GNU_SOURCE  // accept4(2)
#include "CBluetoothLinux.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <termios.h>
#include <stdio.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <pthread.h>

unsigned int cbl_sockaddr_hci_size(void) { return (unsigned int)sizeof(struct sockaddr_hci); }

unsigned int cbl_sockaddr_l2_size(void) { return (unsigned int)sizeof(struct sockaddr_l2); }

// The result of a call that returns -1 and sets errno on failure, as -errno.
#define CBL_RESULT(call) ({ long cbl_r = (long)(call); cbl_r < 0 ? -(long)errno : cbl_r; })

int cbl_hci_socket(void) {
    return (int)CBL_RESULT(socket(AF_BLUETOOTH, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, BTPROTO_HCI));
}

int cbl_hci_bind(int fd, uint16_t device, uint16_t channel) {
    struct sockaddr_hci address;
    memset(&address, 0, sizeof address);
    address.hci_family = AF_BLUETOOTH;
    address.hci_dev = device;
    address.hci_channel = channel;
    return (int)CBL_RESULT(bind(fd, (struct sockaddr *)&address, sizeof address));
}

int cbl_hci_set_filter(int fd, uint32_t type_mask, uint32_t event_mask_low, uint32_t event_mask_high,
                       uint16_t opcode) {
    struct hci_filter filter;
    memset(&filter, 0, sizeof filter);
    filter.type_mask = type_mask;
    filter.event_mask[0] = event_mask_low;
    filter.event_mask[1] = event_mask_high;
    filter.opcode = opcode;
    return (int)CBL_RESULT(setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, sizeof filter));
}

int cbl_hci_device_list(int fd, uint16_t *ids, uint16_t capacity) {
    if (capacity == 0) return 0;
    size_t size = sizeof(struct hci_dev_list_req) + capacity * sizeof(struct hci_dev_req);
    struct hci_dev_list_req *list = calloc(1, size);
    if (list == NULL) return -ENOMEM;
    list->dev_num = capacity;
    int result = (int)CBL_RESULT(ioctl(fd, HCIGETDEVLIST, (void *)list));
    if (result >= 0) {
        uint16_t count = list->dev_num < capacity ? list->dev_num : capacity;
        for (uint16_t i = 0; i < count; i++) ids[i] = list->dev_req[i].dev_id;
        result = count;
    }
    free(list);
    return result;
}

int cbl_hci_device_info(int fd, uint16_t device, struct hci_dev_info *info) {
    memset(info, 0, sizeof *info);
    info->dev_id = device;
    return (int)CBL_RESULT(ioctl(fd, HCIGETDEVINFO, (void *)info));
}

int cbl_hci_device_up(int fd, uint16_t device) {
    return (int)CBL_RESULT(ioctl(fd, HCIDEVUP, (unsigned long)device));
}

int cbl_hci_device_down(int fd, uint16_t device) {
    return (int)CBL_RESULT(ioctl(fd, HCIDEVDOWN, (unsigned long)device));
}

int cbl_l2cap_socket(void) {
    return (int)CBL_RESULT(socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, BTPROTO_L2CAP));
}

static struct sockaddr_l2 cbl_l2_address(const bdaddr_t *address, uint8_t address_type, uint16_t cid) {
    struct sockaddr_l2 l2;
    memset(&l2, 0, sizeof l2);
    l2.l2_family = AF_BLUETOOTH;
    bacpy(&l2.l2_bdaddr, address);
    l2.l2_bdaddr_type = address_type;
    l2.l2_cid = htobs(cid);
    return l2;
}

int cbl_l2cap_bind(int fd, const bdaddr_t *address, uint8_t address_type, uint16_t cid) {
    struct sockaddr_l2 l2 = cbl_l2_address(address, address_type, cid);
    return (int)CBL_RESULT(bind(fd, (struct sockaddr *)&l2, sizeof l2));
}

int cbl_l2cap_connect(int fd, const bdaddr_t *address, uint8_t address_type, uint16_t cid) {
    struct sockaddr_l2 l2 = cbl_l2_address(address, address_type, cid);
    return (int)CBL_RESULT(connect(fd, (struct sockaddr *)&l2, sizeof l2));
}

int cbl_l2cap_accept(int fd, bdaddr_t *peer, uint8_t *peer_type) {
    struct sockaddr_l2 l2;
    socklen_t length = sizeof l2;
    memset(&l2, 0, sizeof l2);
    int result = (int)CBL_RESULT(accept4(fd, (struct sockaddr *)&l2, &length, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (result >= 0) {
        bacpy(peer, &l2.l2_bdaddr);
        *peer_type = l2.l2_bdaddr_type;
    }
    return result;
}

int cbl_l2cap_peer(int fd, bdaddr_t *peer, uint8_t *peer_type) {
    struct sockaddr_l2 l2;
    socklen_t length = sizeof l2;
    memset(&l2, 0, sizeof l2);
    int result = (int)CBL_RESULT(getpeername(fd, (struct sockaddr *)&l2, &length));
    if (result >= 0) {
        bacpy(peer, &l2.l2_bdaddr);
        *peer_type = l2.l2_bdaddr_type;
    }
    return result;
}

int cbl_l2cap_connection_handle(int fd) {
    struct l2cap_conninfo info;
    socklen_t length = sizeof info;
    memset(&info, 0, sizeof info);
    int result = (int)CBL_RESULT(getsockopt(fd, SOL_L2CAP, L2CAP_CONNINFO, &info, &length));
    return result < 0 ? result : (int)info.hci_handle;
}

int cbl_listen(int fd, int backlog) { return (int)CBL_RESULT(listen(fd, backlog)); }

int cbl_set_security(int fd, uint8_t level) {
    struct bt_security security;
    memset(&security, 0, sizeof security);
    security.level = level;
    return (int)CBL_RESULT(setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, sizeof security));
}

int cbl_get_security(int fd, uint8_t *level, uint8_t *key_size) {
    struct bt_security security;
    socklen_t length = sizeof security;
    memset(&security, 0, sizeof security);
    int result = (int)CBL_RESULT(getsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, &length));
    if (result >= 0) {
        *level = security.level;
        *key_size = security.key_size;
    }
    return result;
}

int cbl_get_mtu(int fd, int receive) {
    uint16_t mtu = 0;
    socklen_t length = sizeof mtu;
    int result = (int)CBL_RESULT(getsockopt(fd, SOL_BLUETOOTH, receive ? BT_RCVMTU : BT_SNDMTU, &mtu, &length));
    return result < 0 ? result : (int)mtu;
}

int cbl_socket_error(int fd) {
    int pending = 0;
    socklen_t length = sizeof pending;
    int result = (int)CBL_RESULT(getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length));
    return result < 0 ? result : pending;
}

ssize_t cbl_send(int fd, const void *bytes, size_t count) {
    return (ssize_t)CBL_RESULT(send(fd, bytes, count, MSG_NOSIGNAL));
}

ssize_t cbl_recv(int fd, void *bytes, size_t capacity) {
    return (ssize_t)CBL_RESULT(recv(fd, bytes, capacity, 0));
}

int cbl_close(int fd) { return (int)CBL_RESULT(close(fd)); }

// MARK: Byte streams

ssize_t cbl_read(int fd, void *bytes, size_t capacity) { return (ssize_t)CBL_RESULT(read(fd, bytes, capacity)); }

ssize_t cbl_write(int fd, const void *bytes, size_t count, int is_socket) {
    if (is_socket) return (ssize_t)CBL_RESULT(send(fd, bytes, count, MSG_NOSIGNAL));
    return (ssize_t)CBL_RESULT(write(fd, bytes, count));
}

int cbl_is_socket(int fd) {
    struct stat status;
    int result = (int)CBL_RESULT(fstat(fd, &status));
    return result < 0 ? result : (S_ISSOCK(status.st_mode) ? 1 : 0);
}

int cbl_set_nonblocking(int fd) {
    int flags = (int)CBL_RESULT(fcntl(fd, F_GETFL));
    if (flags < 0) return flags;
    int result = (int)CBL_RESULT(fcntl(fd, F_SETFL, flags | O_NONBLOCK));
    if (result < 0) return result;
    int descriptor_flags = (int)CBL_RESULT(fcntl(fd, F_GETFD));
    if (descriptor_flags < 0) return descriptor_flags;
    return (int)CBL_RESULT(fcntl(fd, F_SETFD, descriptor_flags | FD_CLOEXEC));
}

// MARK: Readiness on a thread of its own

int cbl_wake_open(void) { return (int)CBL_RESULT(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)); }

int cbl_wake_signal(int wake_fd) {
    uint64_t one = 1;
    ssize_t written = write(wake_fd, &one, sizeof one);
    return written == (ssize_t)sizeof one ? 0 : -errno;
}

int cbl_thread_set_name(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    return pthread_setname_np(pthread_self(), cut);
}

static int cbl_wait_ready(int fd, short events, int wake_fd) {
    struct pollfd watched[2] = {
        { .fd = fd, .events = events },
        { .fd = wake_fd, .events = POLLIN },
    };
    while (1) {
        int ready = poll(watched, 2, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (watched[1].revents != 0) return 0;
        if (watched[0].revents != 0) return 1;
    }
}

int cbl_wait_readable(int fd, int wake_fd) { return cbl_wait_ready(fd, POLLIN, wake_fd); }

int cbl_wait_writable(int fd, int wake_fd) { return cbl_wait_ready(fd, POLLOUT, wake_fd); }

// MARK: Serial ports

int cbl_tty_open(const char *path) { return (int)CBL_RESULT(open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)); }

int cbl_tty_set_exclusive(int fd) { return (int)CBL_RESULT(ioctl(fd, TIOCEXCL)); }

int cbl_tty_is_exclusive(int fd) {
    int exclusive = 0;
    int result = (int)CBL_RESULT(ioctl(fd, TIOCGEXCL, &exclusive));
    return result < 0 ? result : (exclusive ? 1 : 0);
}

// The standard speeds from 9600 bits per second up, as <termios.h> names them on Linux.
static const struct { unsigned int rate; speed_t speed; } cbl_speeds[] = {
    {9600, B9600}, {19200, B19200}, {38400, B38400}, {57600, B57600}, {115200, B115200},
    {230400, B230400}, {460800, B460800}, {500000, B500000}, {576000, B576000}, {921600, B921600},
    {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000}, {2000000, B2000000},
    {2500000, B2500000}, {3000000, B3000000}, {3500000, B3500000}, {4000000, B4000000},
};

unsigned int cbl_tty_speed(unsigned int baud_rate) {
    for (size_t i = 0; i < sizeof cbl_speeds / sizeof cbl_speeds[0]; i++) {
        if (cbl_speeds[i].rate == baud_rate) return (unsigned int)cbl_speeds[i].speed;
    }
    return 0;
}

unsigned int cbl_tty_baud_rate(unsigned int speed) {
    for (size_t i = 0; i < sizeof cbl_speeds / sizeof cbl_speeds[0]; i++) {
        if ((unsigned int)cbl_speeds[i].speed == speed) return cbl_speeds[i].rate;
    }
    return 0;
}

int cbl_tty_configure(int fd, unsigned int speed, int rts_cts) {
    struct termios settings;
    memset(&settings, 0, sizeof settings);
    int result = (int)CBL_RESULT(tcgetattr(fd, &settings));
    if (result < 0) return result;
    cfmakeraw(&settings);
    settings.c_cflag |= CLOCAL | CREAD;
    if (rts_cts) settings.c_cflag |= CRTSCTS; else settings.c_cflag &= ~(tcflag_t)CRTSCTS;
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    result = (int)CBL_RESULT(cfsetispeed(&settings, (speed_t)speed));
    if (result < 0) return result;
    result = (int)CBL_RESULT(cfsetospeed(&settings, (speed_t)speed));
    if (result < 0) return result;
    return (int)CBL_RESULT(tcsetattr(fd, TCSANOW, &settings));
}

int cbl_pty_open(char *slave_path, size_t capacity) {
    int master = (int)CBL_RESULT(posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
    if (master < 0) return master;
    int result = (int)CBL_RESULT(grantpt(master));
    if (result >= 0) result = (int)CBL_RESULT(unlockpt(master));
    if (result >= 0) {
        int named = ptsname_r(master, slave_path, capacity);
        if (named != 0) result = -named;
    }
    if (result < 0) {
        close(master);
        return result;
    }
    return master;
}

int cbl_tty_flush(int fd) { return (int)CBL_RESULT(tcflush(fd, TCIOFLUSH)); }

// MARK: TCP

// `host` ("localhost", numeric IPv4 or IPv6) and `port` as a socket address; 0, or -EINVAL.
static int cbl_tcp_sockaddr(const char *host, uint16_t port, struct sockaddr_storage *address, socklen_t *length) {
    memset(address, 0, sizeof *address);
    if (strcmp(host, "localhost") == 0) host = "127.0.0.1";
    struct sockaddr_in *v4 = (struct sockaddr_in *)address;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *length = sizeof *v4;
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)address;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *length = sizeof *v6;
        return 0;
    }
    return -EINVAL;
}

int cbl_tcp_connect(const char *host, uint16_t port) {
    struct sockaddr_storage address;
    socklen_t length = 0;
    int result = cbl_tcp_sockaddr(host, port, &address, &length);
    if (result < 0) return result;
    int fd = (int)CBL_RESULT(socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP));
    if (fd < 0) return fd;
    result = (int)CBL_RESULT(connect(fd, (struct sockaddr *)&address, length));
    if (result < 0 && result != -EINPROGRESS) {
        close(fd);
        return result;
    }
    return fd;
}

int cbl_tcp_listen(const char *host, uint16_t port, int backlog, uint16_t *bound_port) {
    struct sockaddr_storage address;
    socklen_t length = 0;
    int result = cbl_tcp_sockaddr(host, port, &address, &length);
    if (result < 0) return result;
    int fd = (int)CBL_RESULT(socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP));
    if (fd < 0) return fd;
    int yes = 1;
    result = (int)CBL_RESULT(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes));
    if (result >= 0) result = (int)CBL_RESULT(bind(fd, (struct sockaddr *)&address, length));
    if (result >= 0) result = (int)CBL_RESULT(listen(fd, backlog));
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof bound;
    if (result >= 0) result = (int)CBL_RESULT(getsockname(fd, (struct sockaddr *)&bound, &bound_length));
    if (result < 0) {
        close(fd);
        return result;
    }
    *bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                     : ((struct sockaddr_in *)&bound)->sin_port);
    return fd;
}

int cbl_tcp_accept(int fd) { return (int)CBL_RESULT(accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)); }

int cbl_tcp_set_nodelay(int fd) {
    int yes = 1;
    return (int)CBL_RESULT(setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes));
}

int cbl_tcp_address(int fd, int peer, char *text, size_t capacity) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    memset(&address, 0, sizeof address);
    int result = (int)(peer ? CBL_RESULT(getpeername(fd, (struct sockaddr *)&address, &length))
                            : CBL_RESULT(getsockname(fd, (struct sockaddr *)&address, &length)));
    if (result < 0) return result;
    char host[INET6_ADDRSTRLEN];
    if (address.ss_family == AF_INET6) {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
        if (inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host) == NULL) return -errno;
        snprintf(text, capacity, "[%s]:%u", host, (unsigned)ntohs(v6->sin6_port));
    } else if (address.ss_family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
        if (inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host) == NULL) return -errno;
        snprintf(text, capacity, "%s:%u", host, (unsigned)ntohs(v4->sin_port));
    } else {
        return -EAFNOSUPPORT;
    }
    return 0;
}
