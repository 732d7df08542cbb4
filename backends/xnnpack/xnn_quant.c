/* Helpers of the quantized nodes (xnn_quant.h). */
#include "xnnpack/xnn_quant.h"

#include <math.h>

#include "cpu/isa.h"

float px_qbound(float v, float scale, int32_t zero_point, uint8_t dt) {
  float lo = (float)px_qmin(dt), hi = (float)px_qmax(dt);
  if (v == -INFINITY) return lo;
  if (v == INFINITY) return hi;
  return px_clampf(nearbyintf(v / scale + (float)zero_point), lo, hi);
}

ptera_status px_want_q8(px_graph *g, const px_value *v, const char *what) {
  if (!px_is_q8(v->dt) || v->def->quant != PF_XNN_Q_PER_TENSOR)
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "%s has datatype %s; this node needs per-tensor qint8 or quint8 here",
                   what, pf_xnn_dtype_name(v->dt));
  int32_t zp = v->def->zero_point;
  if (zp < px_qmin(v->dt) || zp > px_qmax(v->dt))
    return px_fail(g, PTERA_INVALID_PROGRAM, "%s zero point %d is outside the %s range", what, (int)zp,
                   pf_xnn_dtype_name(v->dt));
  if (!(v->def->scale > 0.0f) || !isfinite(v->def->scale))
    return px_fail(g, PTERA_INVALID_PROGRAM, "%s scale %g is not positive and finite", what, (double)v->def->scale);
  return PTERA_OK;
}

ptera_status px_check_requant(px_graph *g, float sx, float sw, float so, size_t channel) {
  float s = (sx * sw) / so;
  if (!(s > 0.0f && s < 256.0f))
    return px_fail(g, PTERA_INVALID_PROGRAM, "requantization scale %g of channel %zu is outside (0, 256)", (double)s,
                   channel);
  return PTERA_OK;
}

ptera_status px_qd8_rows(px_graph *g, const px_value *v, size_t *rows, size_t *rowlen) {
  int32_t nb = v->def->num_nonbatch_dims;
  if (v->def->quant != PF_XNN_Q_PER_TOKEN || nb < 1)
    return px_fail(g, PTERA_INVALID_PROGRAM, "qdint8 value needs PerTokenDynamicQuant with num_nonbatch_dims >= 1");
  size_t lead = (size_t)nb >= v->ndims ? 0 : v->ndims - (size_t)nb, r = 1, l = 1;
  for (size_t i = 0; i < v->ndims; i++) {
    if (i < lead) r *= v->dims[i];
    else l *= v->dims[i];
  }
  *rows = r;
  *rowlen = l;
  return PTERA_OK;
}

px_qd8_param *px_qd8_params(const px_value *v) {
  size_t off = (px_numel(v) + 7) & ~(size_t)7;
  return (px_qd8_param *)(void *)((uint8_t *)v->data + off);
}

ptera_status px_qd8_input(px_graph *g, uint32_t vi, size_t *rows, size_t *rowlen) {
  for (uint32_t i = g->cur; i-- > 0;) {
    const pf_xnn_node *m = &g->g.nodes[i];
    if (m->out[0] != vi && !(m->nout > 1 && m->out[1] == vi)) continue;
    if (m->kind != PF_XNN_CONVERT) break;
    return px_qd8_rows(g, &g->v[vi], rows, rowlen);
  }
  return px_fail(g, PTERA_INVALID_PROGRAM, "qdint8 input (value %u) is not the output of an earlier Convert",
                 (unsigned)vi);
}

pk_qs8_dot4_fn px_qs8_dot4(void) {
#if defined(__x86_64__)
  pk_isa isa = pk_isa_selected();
  if (isa == PK_ISA_AVX2 || isa == PK_ISA_AVX512) return pk_qs8_dot4_avx2;
#endif
  return pk_qs8_dot4_scalar;
}

pk_qs8_gemm_fn px_qs8_gemm(void) {
  pk_isa isa = pk_isa_selected();
#if defined(__x86_64__)
  if (isa == PK_ISA_AVX512 && pk_isa_ext_available(PK_EXT_AVX512VNNI)) return pk_qs8_gemm_4x16c4_avx512vnni;
  if ((isa == PK_ISA_AVX512 || isa == PK_ISA_AVX2) && pk_isa_ext_available(PK_EXT_AVXVNNI))
    return pk_qs8_gemm_4x16c4_avxvnni;
  if (isa == PK_ISA_AVX512 || isa == PK_ISA_AVX2) return pk_qs8_gemm_4x16c4_avx2;
#elif defined(__aarch64__)
  if (isa == PK_ISA_NEON) return pk_isa_ext_available(PK_EXT_DOTPROD) ? pk_qs8_gemm_4x16c4_neondot : pk_qs8_gemm_4x16c4_neon;
#endif
  (void)isa;
  return pk_qs8_gemm_4x16c4_scalar;
}
