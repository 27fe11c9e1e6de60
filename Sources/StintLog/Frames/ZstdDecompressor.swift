internal import CZstd

/// Why a frame could not be decompressed.
struct FrameDecodeFailure: Error {
    var reason: String
    var oversized: Bool
}

/// A reusable zstd decompression context and output buffer.
///
/// The context is created once with `ZSTD_d_windowLogMax` = 27 and reused for every frame; the output
/// buffer grows to the largest frame seen and is reused too, so the content returned by
/// ``decompress(_:header:)`` is valid only until the next call.
final class ZstdDecompressor {
    private let context: OpaquePointer
    private var output: UnsafeMutableRawBufferPointer

    init() {
        context = ZSTD_createDCtx()
        _ = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, FrameLimits.maximumWindowLog)
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    }

    deinit {
        ZSTD_freeDCtx(context)
        output.deallocate()
    }

    /// Decompresses one whole frame and verifies its content checksum; the result is valid until the next
    /// call.
    func decompress(
        _ frame: UnsafeRawBufferPointer, header: DataFrameHeader
    ) throws(FrameDecodeFailure) -> UnsafeRawBufferPointer {
        if let contentSize = header.contentSize {
            let size = Int(contentSize)
            reserve(size)
            let result = ZSTD_decompressDCtx(context, output.baseAddress, size, frame.baseAddress, frame.count)
            try Self.check(result, declared: size)
            return UnsafeRawBufferPointer(rebasing: output[0..<size])
        }
        return try decompressStreaming(frame)
    }

    /// The content of one whole frame that declares its size, checksum verified, in an array of its own
    /// (for a content kept after the call, without copying it out of the reused buffer).
    func decompressedArray(
        _ frame: UnsafeRawBufferPointer, header: DataFrameHeader
    ) throws(FrameDecodeFailure) -> [UInt8] {
        guard let contentSize = header.contentSize else { return Array(try decompress(frame, header: header)) }
        let size = Int(contentSize)
        var result = 0
        let content = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            result = ZSTD_decompressDCtx(context, buffer.baseAddress, size, frame.baseAddress, frame.count)
            count = stint_zstd_is_error(result) == 0 && result == size ? size : 0
        }
        try Self.check(result, declared: size)
        return content
    }

    /// Throws unless `result`, what `ZSTD_decompressDCtx` returned, is the `declared` content size.
    private static func check(_ result: Int, declared size: Int) throws(FrameDecodeFailure) {
        if stint_zstd_is_error(result) != 0 {
            throw FrameDecodeFailure(reason: ZstdDecompressor.describe(result), oversized: false)
        }
        guard result == size else {
            throw FrameDecodeFailure(
                reason: "the frame decompresses to \(result) bytes, not the \(size) its header declares",
                oversized: false)
        }
    }

    /// Decompresses a frame that does not declare its content size, growing the output up to the limit.
    private func decompressStreaming(_ frame: UnsafeRawBufferPointer) throws(FrameDecodeFailure)
        -> UnsafeRawBufferPointer
    {
        _ = ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
        var input = ZSTD_inBuffer(src: frame.baseAddress, size: frame.count, pos: 0)
        var produced = 0
        while true {
            if produced == output.count {
                guard output.count < Int(FrameLimits.maximumContentSize) else {
                    throw FrameDecodeFailure(
                        reason: "the frame's content exceeds the 256 MiB allowed", oversized: true)
                }
                reserve(min(output.count * 2, Int(FrameLimits.maximumContentSize)), keeping: produced)
            }
            var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: produced)
            let result = ZSTD_decompressStream(context, &target, &input)
            produced = target.pos
            if stint_zstd_is_error(result) != 0 {
                throw FrameDecodeFailure(reason: ZstdDecompressor.describe(result), oversized: false)
            }
            if result == 0 { return UnsafeRawBufferPointer(rebasing: output[0..<produced]) }
            if input.pos == input.size && target.pos < target.size {
                throw FrameDecodeFailure(reason: "the frame ends before its last block", oversized: false)
            }
        }
    }

    private func reserve(_ size: Int, keeping kept: Int = 0) {
        guard size > output.count else { return }
        let capacity = min(max(size, output.count * 2), max(size, Int(FrameLimits.maximumContentSize)))
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        if kept > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: output[0..<kept])) }
        output.deallocate()
        output = grown
    }

    static func describe(_ code: Int) -> String {
        let name = String(cString: ZSTD_getErrorName(code))
        if name.contains("checksum") { return "the frame's content checksum does not match (\(name))" }
        return "the frame does not decompress (\(name))"
    }
}
