#ifndef STINT_CCRYPTO_SHIM_H
#define STINT_CCRYPTO_SHIM_H

#include <openssl/sha.h>
#include <openssl/evp.h>

/// SHA-256 of `count` bytes into `digest` (32 bytes) through the low-level functions. OpenSSL 3's one-shot
/// `SHA256()` looks the algorithm up in its provider tables under a read lock on every call (about 5 % of
/// `stint verify`, a million calls); the low-level functions run the same assembly without the lookup.
static inline void stint_sha256(const unsigned char *data, size_t count, unsigned char *digest) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, data, count);
    SHA256_Final(digest, &context);
#pragma clang diagnostic pop
}

/// An incremental SHA-256 (the digest of a growing segment): begin, add bytes, and the digest of what was
/// added so far (the context is copied, so that more bytes can be added after).
static inline void stint_sha256_begin(SHA256_CTX *context) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    SHA256_Init(context);
#pragma clang diagnostic pop
}

static inline void stint_sha256_add(SHA256_CTX *context, const unsigned char *data, size_t count) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    SHA256_Update(context, data, count);
#pragma clang diagnostic pop
}

static inline void stint_sha256_digest(const SHA256_CTX *context, unsigned char *digest) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    SHA256_CTX copy = *context;
    SHA256_Final(digest, &copy);
#pragma clang diagnostic pop
}

#endif
