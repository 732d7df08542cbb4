// Runs Google's FlatBuffers verifier (the generated Verify*Buffer functions
// of flatc --cpp, from tests/schema/*.fbs) over the flatbuffer region of
// .pte / .ptd files, and of bare XNNGraph flatbuffers (identifier XN01, as
// cut out of an XnnpackBackend blob). flatc's own binary->JSON conversion
// does not verify.
// Built on the fly by tests/schema/schema_common.py; not part of the C build.
//
// usage: verify FILE...   prints "OK <file>" or "FAIL <file>: why" per file;
// exit status 1 if any file fails.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "flat_tensor_generated.h"
#include "program_generated.h"
#include "xnnpack_generated.h"

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static const char *check(const std::vector<uint8_t> &file) {
  if (file.size() < 16) return "shorter than 16 bytes";
  uint64_t region = file.size();
  bool ptd = std::memcmp(&file[4], "FT01", 4) == 0;
  bool pte = std::memcmp(&file[4], "ET12", 4) == 0;
  bool xnn = std::memcmp(&file[4], "XN01", 4) == 0;
  if (!ptd && !pte && !xnn) return "identifier is neither ET12, FT01 nor XN01";
  if (pte && std::memcmp(&file[8], "eh00", 4) == 0) {
    if (file.size() < 24) return "truncated extended header";
    region = le64(&file[16]);  // program_size (PTE.md 3)
  } else if (ptd) {
    if (file.size() < 40 || std::memcmp(&file[8], "FH01", 4) != 0) return "no FH01 header";
    region = le64(&file[16]) + le64(&file[24]);  // flatbuffer_offset + size (PTD.md 2)
  }
  if (region > file.size() || region < 8) return "flatbuffer region outside the file";
  // Copy into a 64-aligned buffer: the verifier checks absolute alignment.
  size_t cap = (region + 63) / 64 * 64;
  uint8_t *buf = static_cast<uint8_t *>(std::aligned_alloc(64, cap));
  std::memcpy(buf, file.data(), region);
  flatbuffers::Verifier v(buf, region);
  bool ok = xnn ? fb_xnnpack::VerifyXNNGraphBuffer(v)
            : pte ? executorch_flatbuffer::VerifyProgramBuffer(v)
                  : flat_tensor_flatbuffer::VerifyFlatTensorBuffer(v);
  std::free(buf);
  return ok ? nullptr : "flatbuffers::Verifier rejected the buffer";
}

int main(int argc, char **argv) {
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    std::FILE *f = std::fopen(argv[i], "rb");
    if (!f) { std::printf("FAIL %s: cannot open\n", argv[i]); bad = 1; continue; }
    std::vector<uint8_t> data;
    uint8_t chunk[65536];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) data.insert(data.end(), chunk, chunk + n);
    std::fclose(f);
    const char *why = check(data);
    if (why) { std::printf("FAIL %s: %s\n", argv[i], why); bad = 1; }
    else std::printf("OK %s\n", argv[i]);
  }
  return bad;
}
