#ifndef STINT_CSQLITE_SHIM_H
#define STINT_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (a cast of -1 to a destructor pointer, which Swift cannot import): SQLite copies the
/// bytes before the bind call returns.
static inline sqlite3_destructor_type stint_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
