#ifndef STINT_CZSTD_SHIM_H
#define STINT_CZSTD_SHIM_H

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

/// ZSTD_isError as a function Swift can call without macro tricks.
static inline int stint_zstd_is_error(size_t code) { return ZSTD_isError(code) ? 1 : 0; }

#endif
