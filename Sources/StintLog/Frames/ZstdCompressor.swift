internal import CZstd

/// A reusable zstd compression context that writes frames the log accepts: content size in the header
/// and a content checksum at the end.
final class ZstdCompressor {
    private let context: OpaquePointer

    /// A compressor at `level` (the active segment uses ``activeLevel``, sealing ``sealLevel``).
    init(level: Int32) {
        context = ZSTD_createCCtx()
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1)
    }

    deinit {
        ZSTD_freeCCtx(context)
    }

    /// The level of the one-batch frames of the active segment: fast, since each append pays it.
    static let activeLevel: Int32 = 3
    /// The level sealed segments are recompressed at (see docs/decisions/0001-log-format.md).
    static let sealLevel: Int32 = 11

    /// Compresses `content` into one frame appended to `frames`.
    func compress(_ content: UnsafeRawBufferPointer, appendingTo frames: inout [UInt8]) throws(LogError) {
        let bound = ZSTD_compressBound(content.count)
        let start = frames.count
        frames.append(contentsOf: repeatElement(0, count: bound))
        let result = frames.withUnsafeMutableBytes { buffer in
            ZSTD_compress2(context, buffer.baseAddress! + start, bound, content.baseAddress, content.count)
        }
        guard stint_zstd_is_error(result) == 0 else {
            frames.removeSubrange(start...)
            let name = String(cString: ZSTD_getErrorName(result))
            throw LogError(.io, "could not compress a frame: \(name)")
        }
        frames.removeSubrange((start + result)...)
    }
}
