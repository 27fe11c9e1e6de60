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

    /// One frame whose content is `parts`, one after the other, compressed as a stream and handed to `emit`
    /// a piece of at most `chunk` bytes at a time: a large payload need not be copied behind its header
    /// first, and its compressed form is never held whole (a checkpoint of a million events compresses to
    /// about 40 MB, which its store writes out as it comes).
    func stream(
        _ parts: [[UInt8]], chunk: Int = 1 << 20, into emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let total = parts.reduce(0) { $0 + $1.count }
        ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
        // The content size goes into the frame header, as ``compress(_:appendingTo:)`` writes it.
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(total))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunk, 1 << 12), alignment: 8)
        defer { buffer.deallocate() }
        do {
            for (index, part) in parts.enumerated() {
                let isLast = index == parts.count - 1
                try part.withUnsafeBytes { part in
                    var input = ZSTD_inBuffer(src: part.baseAddress, size: part.count, pos: 0)
                    while true {
                        var output = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                        let left = ZSTD_compressStream2(
                            context, &output, &input, isLast ? ZSTD_e_end : ZSTD_e_continue)
                        if stint_zstd_is_error(left) != 0 {
                            let name = String(cString: ZSTD_getErrorName(left))
                            throw LogError(.io, "could not compress a frame: \(name)")
                        }
                        if output.pos > 0 { try emit(UnsafeRawBufferPointer(rebasing: buffer[..<output.pos])) }
                        // Done with this part once it is all taken in (and, for the last, the frame is flushed).
                        if isLast ? left == 0 : input.pos == input.size { break }
                    }
                }
            }
        } catch {
            ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
            throw error
        }
    }

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
