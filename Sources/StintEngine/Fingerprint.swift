import StintLog

/// The SHA-256 of bytes as lowercase hex, as `sha256sum` prints it: how a page or a report lets a reader check
/// what it shows against a command's output (`stint snapshot --at … | sha256sum`).
public enum Fingerprint {
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256Digest(of: bytes).hex
    }
}
