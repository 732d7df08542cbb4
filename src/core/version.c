/* The library's version, fixed when it was built (see ptera/version.h). */
#include "ptera/version.h"

const char *ptera_version(void) { return PTERA_VERSION; }

unsigned ptera_version_number(void) { return PTERA_VERSION_NUMBER; }
