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

    /// One frame of `size` bytes of content, which `produce` hands to the `feed` it is given in pieces, as it
    /// makes them (a checkpoint of a million events, about 54 MB, is written a megabyte at a time and never
    /// held whole), compressed as they come and handed to `emit` a piece of at most `chunk` bytes at a time.
    ///
    /// - Throws: ``LogError`` when the content fed is not `size` bytes, or what `produce` or `emit` throws.
    func stream(
        size: Int, chunk: Int = 1 << 20, into emit: (UnsafeRawBufferPointer) throws -> Void,
        producing produce: (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
        // The content size goes into the frame header, as ``compress(_:appendingTo:)`` writes it; zstd
        // refuses to end a frame whose content is not that size.
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(size))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunk, 1 << 12), alignment: 8)
        defer { buffer.deallocate() }
        // `feed` compresses with `emit`, and is handed to `produce`: both closures, so `emit` must escape
        // (it does not outlive this call).
        try withoutActuallyEscaping(emit) { emit in
            func run(_ input: inout ZSTD_inBuffer, _ directive: ZSTD_EndDirective) throws {
                while true {
                    var output = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                    let left = ZSTD_compressStream2(context, &output, &input, directive)
                    if stint_zstd_is_error(left) != 0 {
                        let name = String(cString: ZSTD_getErrorName(left))
                        throw LogError(.io, "could not compress a frame: \(name)")
                    }
                    if output.pos > 0 { try emit(UnsafeRawBufferPointer(rebasing: buffer[..<output.pos])) }
                    // Done once the piece is all taken in (and, at the end, the frame is flushed).
                    if directive == ZSTD_e_end ? left == 0 : input.pos == input.size { break }
                }
            }
            do {
                try produce { piece in
                    var input = ZSTD_inBuffer(src: piece.baseAddress, size: piece.count, pos: 0)
                    try run(&input, ZSTD_e_continue)
                }
                var end = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
                try run(&end, ZSTD_e_end)
            } catch {
                ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
                throw error
            }
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
