/* ptera — symbol visibility and the conventions that keep the ABI stable. */
#ifndef PTERA_EXPORT_H
#define PTERA_EXPORT_H

#if defined(_WIN32) && defined(PTERA_BUILD_SHARED)
#define PTERA_API __declspec(dllexport)
#elif defined(__GNUC__)
#define PTERA_API __attribute__((visibility("default")))
#else
#define PTERA_API
#endif

/* A name kept for one release after it was renamed; the message names the
 * replacement. Define PTERA_NO_DEPRECATION_WARNINGS to silence the warning. */
#if defined(PTERA_NO_DEPRECATION_WARNINGS)
#define PTERA_DEPRECATED(msg)
#elif defined(__GNUC__)
#define PTERA_DEPRECATED(msg) __attribute__((deprecated(msg)))
#elif defined(_MSC_VER)
#define PTERA_DEPRECATED(msg) __declspec(deprecated(msg))
#else
#define PTERA_DEPRECATED(msg)
#endif

/* Sized structs. Every option and info struct of the API (ptera_load_options,
 * ptera_method_options, ptera_method_info, ptera_io_info,
 * ptera_method_memory) starts with `size_t struct_size`, which the caller
 * sets to sizeof the struct it was compiled with; the PTERA_*_INIT macros
 * do that and zero the rest:
 *
 *     ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
 *
 * New fields are only ever appended, so the library knows from struct_size
 * which fields the caller has:
 * - options (read by the library): fields past the caller's struct_size take
 *   their defaults; a caller struct longer than the library's is accepted
 *   when every byte the library does not know is zero, and gives
 *   NotSupported otherwise (a newer field this older library cannot honour).
 * - info structs (written by the library): the library fills the first
 *   min(struct_size, its own size) bytes and leaves struct_size as it was.
 * A struct_size of 0 (a struct zeroed with `= {0}` rather than initialised
 * with its macro) or smaller than the struct's first version gives
 * InvalidArgument. */
#if defined(__cplusplus)
/* C++: a zeroed struct with its size (no missing-initializer warning before C++20). */
#define PTERA_STRUCT_INIT(type) ([] { type s_{}; s_.struct_size = sizeof(type); return s_; }())
#else
#define PTERA_STRUCT_INIT(type) {.struct_size = sizeof(type)}
#endif

#endif
