// FoundationEssentials and the three C libraries Stint links (libzstd, libsqlite3, libcrypto), each called
// once so that the dynamic loader maps and relocates it.
import FoundationEssentials

@_silgen_name("ZSTD_versionNumber") func zstdVersion() -> UInt32
@_silgen_name("sqlite3_libversion_number") func sqliteVersion() -> Int32
@_silgen_name("OpenSSL_version_num") func openSSLVersion() -> UInt

print("hi", FileManager.default.fileExists(atPath: "/tmp"), zstdVersion(), sqliteVersion(), openSSLVersion())
