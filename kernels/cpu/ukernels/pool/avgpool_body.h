/* The body of the f32 average-pool micro-kernel (pool.h), included once per
 * ISA file with AP_FN(name) naming its function: the same C compiled with
 * that ISA's flags. Per output row the window's input rows are summed into
 * a column buffer (a vectorizable loop over columns), then each output sums
 * its kw columns of it; columns go in chunks of AP_CHUNK input columns. */
#include <math.h>
#include <stddef.h>

#include "cpu/ukernels/pool/pool.h"

#define AP_CHUNK 1024

/* Outputs [ox0, ox1) of output row oy, whose windows read input columns
 * inside [xa, xa + AP_CHUNK). */
static void avg_span(const float *in, float *orow, const pk_avgpool2d_params *p, size_t oy, size_t ox0, size_t ox1,
                     float *rs) {
  ptrdiff_t H = (ptrdiff_t)p->h, W = (ptrdiff_t)p->w, kh = (ptrdiff_t)p->kh, kw = (ptrdiff_t)p->kw;
  ptrdiff_t y0 = (ptrdiff_t)(oy * p->sh) - (ptrdiff_t)p->pad_t, y1 = y0 + kh;
  ptrdiff_t ypad = (y1 < H + (ptrdiff_t)p->pad_t ? y1 : H + (ptrdiff_t)p->pad_t) - y0;
  ptrdiff_t ya = y0 > 0 ? y0 : 0, yb = y1 < H ? y1 : H;
  ptrdiff_t xa = (ptrdiff_t)(ox0 * p->sw) - (ptrdiff_t)p->pad_l;
  ptrdiff_t xb = (ptrdiff_t)((ox1 - 1) * p->sw) - (ptrdiff_t)p->pad_l + kw;
  if (xa < 0) xa = 0;
  if (xb > W) xb = W;
  size_t nx = xb > xa ? (size_t)(xb - xa) : 0;
  for (size_t x = 0; x < nx; x++) rs[x] = 0.0f;
  for (ptrdiff_t y = ya; y < yb; y++) {
    const float *row = in + y * W + xa;
    for (size_t x = 0; x < nx; x++) rs[x] += row[x];
  }
  for (size_t ox = ox0; ox < ox1; ox++) {
    ptrdiff_t x0 = (ptrdiff_t)(ox * p->sw) - (ptrdiff_t)p->pad_l, x1 = x0 + kw;
    ptrdiff_t xpad = (x1 < W + (ptrdiff_t)p->pad_l ? x1 : W + (ptrdiff_t)p->pad_l) - x0;
    ptrdiff_t ca = x0 > 0 ? x0 : 0, cb = x1 < W ? x1 : W;
    float sum = 0.0f;
    for (ptrdiff_t x = ca; x < cb; x++) sum += rs[x - xa];
    int64_t div = p->divisor ? p->divisor
                  : p->include_pad ? (int64_t)(ypad * xpad)
                                   : (int64_t)((yb > ya ? yb - ya : 0) * (cb > ca ? cb - ca : 0));
    orow[ox] = div ? sum / (float)div : NAN;
  }
}

void AP_FN(pk_f32_avgpool2d)(const float *in, float *out, const pk_avgpool2d_params *p) {
  float rs[AP_CHUNK];
  /* outputs per chunk: their windows' columns fit in AP_CHUNK */
  size_t per = p->kw <= AP_CHUNK ? (AP_CHUNK - p->kw) / p->sw + 1 : 0;
  for (size_t oy = 0; oy < p->oh; oy++) {
    float *orow = out + oy * p->ow;
    if (!per) { /* a window wider than the buffer: each output summed directly */
      ptrdiff_t H = (ptrdiff_t)p->h, W = (ptrdiff_t)p->w;
      ptrdiff_t y0 = (ptrdiff_t)(oy * p->sh) - (ptrdiff_t)p->pad_t, y1 = y0 + (ptrdiff_t)p->kh;
      ptrdiff_t ypad = (y1 < H + (ptrdiff_t)p->pad_t ? y1 : H + (ptrdiff_t)p->pad_t) - y0;
      for (size_t ox = 0; ox < p->ow; ox++) {
        ptrdiff_t x0 = (ptrdiff_t)(ox * p->sw) - (ptrdiff_t)p->pad_l, x1 = x0 + (ptrdiff_t)p->kw;
        ptrdiff_t xpad = (x1 < W + (ptrdiff_t)p->pad_l ? x1 : W + (ptrdiff_t)p->pad_l) - x0;
        float sum = 0.0f;
        int64_t cnt = 0;
        for (ptrdiff_t y = y0 > 0 ? y0 : 0; y < y1 && y < H; y++)
          for (ptrdiff_t x = x0 > 0 ? x0 : 0; x < x1 && x < W; x++, cnt++) sum += in[y * W + x];
        int64_t div = p->divisor ? p->divisor : p->include_pad ? (int64_t)(ypad * xpad) : cnt;
        orow[ox] = div ? sum / (float)div : NAN;
      }
      continue;
    }
    for (size_t ox0 = 0; ox0 < p->ow; ox0 += per)
      avg_span(in, orow, p, oy, ox0, ox0 + per < p->ow ? ox0 + per : p->ow, rs);
  }
}
