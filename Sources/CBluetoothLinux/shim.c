#define _GNU_SOURCE  // accept4(2)
#include "CBluetoothLinux.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/ioctl.h>

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
