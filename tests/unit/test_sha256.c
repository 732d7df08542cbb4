/* SHA-256 (compiler/sha256.c) against the FIPS 180-4 / NIST CSVP example
 * vectors, and against digests from independent implementations (Python's
 * hashlib, cross-checked with coreutils sha256sum) for lengths around the
 * 55/56 and 64-byte padding boundaries. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sha256.h"

static int hex_is(const void *data, size_t size, const char *want) {
  char hex[65];
  memset(hex, 'x', sizeof hex);
  pc_sha256_hex(data, size, hex);
  return hex[64] == '\0' && strcmp(hex, want) == 0;
}

static void test_nist_vectors(void) {
  /* FIPS 180-2 Appendix B / NIST "SHA256.pdf" examples. */
  CHECK(hex_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  CHECK(hex_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK(strlen(m448) == 56);
  CHECK(hex_is(m448, 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  size_t n = 1000000;
  char *a = malloc(n);
  CHECK(a != NULL);
  if (a) {
    memset(a, 'a', n);
    CHECK(hex_is(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    free(a);
  }
  /* The raw digest is the big-endian bytes of the hex form. */
  uint8_t d[32];
  pc_sha256("abc", 3, d);
  CHECK(d[0] == 0xba && d[1] == 0x78 && d[2] == 0x16 && d[31] == 0xad);
}

/* Message bytes i*7+3 (mod 256), i = 0..len-1; digests from hashlib. */
static void test_block_boundaries(void) {
  static const struct {
    size_t len;
    const char *hex;
  } cases[] = {
      {55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
      {56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
      {63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
      {64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
      {65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
      {119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
      {120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
      {128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"},
  };
  uint8_t msg[128];
  for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 7 + 3);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    CHECK(hex_is(msg, cases[k].len, cases[k].hex));
  /* 56 zero bytes: coreutils sha256sum. */
  uint8_t zeros[56] = {0};
  CHECK(hex_is(zeros, 56, "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb"));
}

int main(void) {
  test_nist_vectors();
  test_block_boundaries();
  return check_summary("sha256");
}
