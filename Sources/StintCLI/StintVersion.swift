/// The version `stint --version` prints.
enum StintVersion {
    static let version = "0.2.0"

    /// `stint --version`'s line.
    static var line: String { "stint \(version)\n" }
}
