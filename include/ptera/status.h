/* ptera — status codes (ExecuTorch's Error numbering, so bindings map 1:1). */
#ifndef PTERA_STATUS_H
#define PTERA_STATUS_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptera_status {
  PTERA_OK = 0x00,
  PTERA_INTERNAL = 0x01,
  PTERA_INVALID_STATE = 0x02,
  PTERA_END_OF_METHOD = 0x03,
  PTERA_ALREADY_LOADED = 0x04,
  PTERA_NOT_SUPPORTED = 0x10,
  PTERA_NOT_IMPLEMENTED = 0x11,
  PTERA_INVALID_ARGUMENT = 0x12,
  PTERA_INVALID_TYPE = 0x13,
  PTERA_OPERATOR_MISSING = 0x14,
  PTERA_REGISTRATION_EXCEEDING_MAX_KERNELS = 0x15,
  PTERA_REGISTRATION_ALREADY_REGISTERED = 0x16,
  PTERA_NOT_FOUND = 0x20,
  PTERA_MEMORY_ALLOCATION_FAILED = 0x21,
  PTERA_ACCESS_FAILED = 0x22,
  PTERA_INVALID_PROGRAM = 0x23,
  PTERA_INVALID_EXTERNAL_DATA = 0x24,
  PTERA_OUT_OF_RESOURCES = 0x25,
  PTERA_DELEGATE_INVALID_COMPATIBILITY = 0x30,
  PTERA_DELEGATE_MEMORY_ALLOCATION_FAILED = 0x31,
  PTERA_DELEGATE_INVALID_HANDLE = 0x32
} ptera_status;

/* ExecuTorch's name for a status ("InvalidProgram"); "Unknown" otherwise. */
PTERA_API const char *ptera_status_name(ptera_status status);

#ifdef __cplusplus
}
#endif
#endif
