// CCrypto: the few cryptographic primitives the stack needs, from OpenSSL's libcrypto
// (Debian's libssl-dev). Never hand-rolled.

#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// AES-CMAC (RFC 4493; NIST SP 800-38B) of `length` octets at `message` under the 128-bit
/// `key`, written to `mac` (16 octets). Bluetooth uses it for the GATT Database Hash
/// (Core v5.4, Vol 3, Part G, 7.3) and the signed-write and SMP functions (Vol 3, Part H, 2.2).
/// Returns 0 on success, -1 when libcrypto fails.
int ccrypto_aes_cmac(const uint8_t key[16], const uint8_t *message, size_t length, uint8_t mac[16]);

#endif
