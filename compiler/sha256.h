/* SHA-256 (FIPS 180-4), for content-hash weight keys. Prefix pc_. */
#ifndef PTERA_COMPILER_SHA256_H
#define PTERA_COMPILER_SHA256_H

#include "core/core.h"

PT_FUNC void pc_sha256(const void *data, size_t size, uint8_t digest[32]);
/* Lowercase hex of the digest, NUL-terminated. */
PT_FUNC void pc_sha256_hex(const void *data, size_t size, char hex[65]);

#endif
