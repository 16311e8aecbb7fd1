#include "CBluetoothLinux.h"

unsigned int cbl_sockaddr_hci_size(void) { return (unsigned int)sizeof(struct sockaddr_hci); }

unsigned int cbl_sockaddr_l2_size(void) { return (unsigned int)sizeof(struct sockaddr_l2); }
