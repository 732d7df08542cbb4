/* Calibration samples for `ptera compile --calibration DIR`: DIR holds one
 * subdirectory per sample (taken in name order), each holding input0.npy,
 * input1.npy, ... — the method's inputs, float32, in order. */
#ifndef PTERA_CLI_CALIBRATION_H
#define PTERA_CLI_CALIBRATION_H

#include "calibrate.h"
#include "cli.h"

typedef struct cli_calibration {
  pc_calibration cal;
  cli_array *arrays;
  const float **data;
  size_t *numel;
} cli_calibration;

/* Returns 0, or 1 after reporting what is wrong with DIR. */
int cli_calibration_load(const char *dir, cli_calibration *out);
void cli_calibration_free(cli_calibration *c);

#endif
