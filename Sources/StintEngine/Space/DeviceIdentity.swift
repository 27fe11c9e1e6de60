public import StintCore

/// Where this device's id is kept and how a new one is made (docs/decisions/0007 §4): the file
/// `$XDG_STATE_HOME/stint/device` (the caller finds the path), holding the id and a newline, mode 0600,
/// written through a `.tmp` file and a rename the first time a space needs it.
///
/// ```swift
/// var generator = SystemRandomNumberGenerator()
/// let identity = DeviceIdentity(file: "\(state)/stint/device") { DeviceID(using: &generator) }
/// options.deviceIdentity = identity
/// ```
public struct DeviceIdentity: Sendable {
    /// The id file.
    public var file: String
    /// A new random id, for a device that has none yet.
    public var generate: @Sendable () -> DeviceID

    public init(file: String, generate: @escaping @Sendable () -> DeviceID) {
        self.file = file
        self.generate = generate
    }

    /// The id in the file; nil when there is no file.
    ///
    /// - Throws: ``StintError`` (damaged) for a file that does not hold an id, (refused) when it cannot be
    ///   read.
    public func stored(options: EngineOptions) throws(StintError) -> DeviceID? {
        guard let bytes = try SmallFile(path: file, fileSystem: options.fileSystem).read() else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.last == 0x0A, let id = DeviceID(text.dropLast()) else {
            throw StintError(
                .damaged,
                "the device id file \(file) does not hold a device id (32 lowercase hexadecimal digits and a newline); "
                    + "delete it to write as a new device")
        }
        return id
    }

    /// The id in the file, or a new one written there when there is no file.
    ///
    /// - Throws: as ``stored(options:)``; (refused) when the new file cannot be written.
    public func storedOrCreated(options: EngineOptions) throws(StintError) -> DeviceID {
        if let id = try stored(options: options) { return id }
        let id = generate()
        var created = CreatedEntries(fileSystem: options.fileSystem)
        try keep(id, options: options, noting: &created)
        return id
    }

    /// Writes `id` to the file (there is none yet), noting the file and the directories made for it in
    /// `created`.
    func keep(_ id: DeviceID, options: EngineOptions, noting created: inout CreatedEntries) throws(StintError) {
        try created.write(SmallFile(path: file, fileSystem: options.fileSystem), Array("\(id)\n".utf8))
    }
}

extension EngineOptions {
    /// The identity of this device, refusing when the caller gave none.
    func requireDeviceIdentity() throws(StintError) -> DeviceIdentity {
        guard let deviceIdentity else {
            throw StintError(
                .refused, "no device id file is configured, so this log cannot be part of a space (a bug in the caller)"
            )
        }
        return deviceIdentity
    }
}
