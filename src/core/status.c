#include "ptera/status.h"

const char *ptera_status_name(ptera_status status) {
  switch (status) {
    case PTERA_OK: return "Ok";
    case PTERA_INTERNAL: return "Internal";
    case PTERA_INVALID_STATE: return "InvalidState";
    case PTERA_END_OF_METHOD: return "EndOfMethod";
    case PTERA_ALREADY_LOADED: return "AlreadyLoaded";
    case PTERA_NOT_SUPPORTED: return "NotSupported";
    case PTERA_NOT_IMPLEMENTED: return "NotImplemented";
    case PTERA_INVALID_ARGUMENT: return "InvalidArgument";
    case PTERA_INVALID_TYPE: return "InvalidType";
    case PTERA_OPERATOR_MISSING: return "OperatorMissing";
    case PTERA_REGISTRATION_EXCEEDING_MAX_KERNELS: return "RegistrationExceedingMaxKernels";
    case PTERA_REGISTRATION_ALREADY_REGISTERED: return "RegistrationAlreadyRegistered";
    case PTERA_NOT_FOUND: return "NotFound";
    case PTERA_MEMORY_ALLOCATION_FAILED: return "MemoryAllocationFailed";
    case PTERA_ACCESS_FAILED: return "AccessFailed";
    case PTERA_INVALID_PROGRAM: return "InvalidProgram";
    case PTERA_INVALID_EXTERNAL_DATA: return "InvalidExternalData";
    case PTERA_OUT_OF_RESOURCES: return "OutOfResources";
    case PTERA_DELEGATE_INVALID_COMPATIBILITY: return "DelegateInvalidCompatibility";
    case PTERA_DELEGATE_MEMORY_ALLOCATION_FAILED: return "DelegateMemoryAllocationFailed";
    case PTERA_DELEGATE_INVALID_HANDLE: return "DelegateInvalidHandle";
  }
  return "Unknown";
}
