/* SHA-256 as specified in FIPS 180-4 (§4.1.2 functions, §4.2.2 constants,
 * §5.1.1 padding, §5.3.3 initial hash value, §6.2.2 computation). */
#include "sha256.h"

/* §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
static uint32_t ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
static uint32_t maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
static uint32_t big_sigma0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
static uint32_t big_sigma1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
static uint32_t small_sigma0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
static uint32_t small_sigma1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

/* §6.2.2: processes one 512-bit block (big-endian words). */
static void block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (unsigned t = 0; t < 16; t++)
    w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
           (uint32_t)p[4 * t + 3];
  for (unsigned t = 16; t < 64; t++)
    w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (unsigned t = 0; t < 64; t++) {
    uint32_t t1 = hh + big_sigma1(e) + ch(e, f, g) + K[t] + w[t];
    uint32_t t2 = big_sigma0(a) + maj(a, b, c);
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d;
  h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void pc_sha256(const void *data, size_t size, uint8_t digest[32]) {
  /* §5.3.3 */
  uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  const uint8_t *p = data;
  size_t full = size / 64;
  for (size_t k = 0; k < full; k++) block(h, p + 64 * k);
  /* §5.1.1: the rest, a 1 bit, zeros, and the 64-bit message length in bits
   * (one or two final blocks). */
  uint8_t tail[128];
  size_t rest = size % 64;
  memset(tail, 0, sizeof tail);
  if (rest) memcpy(tail, p + 64 * full, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest < 56 ? 64 : 128;
  uint64_t bits = (uint64_t)size * 8u; /* the length modulo 2^64 */
  for (unsigned k = 0; k < 8; k++) tail[tail_len - 1 - k] = (uint8_t)(bits >> (8 * k));
  block(h, tail);
  if (tail_len == 128) block(h, tail + 64);
  for (unsigned k = 0; k < 8; k++) {
    digest[4 * k] = (uint8_t)(h[k] >> 24);
    digest[4 * k + 1] = (uint8_t)(h[k] >> 16);
    digest[4 * k + 2] = (uint8_t)(h[k] >> 8);
    digest[4 * k + 3] = (uint8_t)h[k];
  }
}

void pc_sha256_hex(const void *data, size_t size, char hex[65]) {
  static const char digits[] = "0123456789abcdef";
  uint8_t d[32];
  pc_sha256(data, size, d);
  for (unsigned k = 0; k < 32; k++) {
    hex[2 * k] = digits[d[k] >> 4];
    hex[2 * k + 1] = digits[d[k] & 15];
  }
  hex[64] = '\0';
}
