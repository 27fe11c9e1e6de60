#ifndef STINT_CCRYPTO_SHIM_H
#define STINT_CCRYPTO_SHIM_H

#include <openssl/sha.h>
#include <openssl/evp.h>

#endif
