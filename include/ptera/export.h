/* ptera — symbol visibility for the public API. */
#ifndef PTERA_EXPORT_H
#define PTERA_EXPORT_H

#if defined(_WIN32) && defined(PTERA_BUILD_SHARED)
#define PTERA_API __declspec(dllexport)
#elif defined(__GNUC__)
#define PTERA_API __attribute__((visibility("default")))
#else
#define PTERA_API
#endif

#endif
