#include "CCrypto.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

int ccrypto_aes_cmac(const uint8_t key[16], const uint8_t *message, size_t length, uint8_t mac[16]) {
    int result = -1;
    EVP_MAC *algorithm = EVP_MAC_fetch(NULL, "CMAC", NULL);
    EVP_MAC_CTX *context = algorithm ? EVP_MAC_CTX_new(algorithm) : NULL;
    if (context) {
        char cipher[] = "AES-128-CBC";
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
            OSSL_PARAM_construct_end(),
        };
        size_t written = 0;
        if (EVP_MAC_init(context, key, 16, params) == 1
            && EVP_MAC_update(context, message, length) == 1
            && EVP_MAC_final(context, mac, &written, 16) == 1
            && written == 16) {
            result = 0;
        }
    }
    EVP_MAC_CTX_free(context);
    EVP_MAC_free(algorithm);
    return result;
}
