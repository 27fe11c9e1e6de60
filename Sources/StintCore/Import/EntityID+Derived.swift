extension EntityID {
    /// The name-based id of `name` in `namespace`: a UUID version 8 built as RFC 9562 (appendix B.2) shows.
    ///
    /// The first 128 bits of SHA-256 over the namespace's 16 bytes followed by `name`, with the version
    /// nibble set to 8 and the variant bits to `10`. The same namespace and name always give the same id,
    /// on every machine; different names give different ids except with negligible probability. Anyone
    /// can recompute an id with a stock SHA-256 (see `docs/import-export.md`).
    ///
    /// ```swift
    /// let dns = EntityID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
    /// EntityID.derived(namespace: dns, name: Array("www.example.com".utf8))  // 5c146b14-3c52-8afd-938a-375d0df1fbf6
    /// ```
    public static func derived(namespace: EntityID, name: [UInt8]) -> EntityID {
        var message = [UInt8]()
        message.reserveCapacity(16 + name.count)
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: namespace.high >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: namespace.low >> UInt64(shift)))
        }
        message.append(contentsOf: name)
        let digest = SHA256.hash(message)
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(digest[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(digest[index]) }
        return EntityID(
            high: (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_8000,
            low: (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        )
    }

    /// The root of the namespaces of imported records; each source system's namespace is derived from it.
    ///
    /// A constant of the format: changing it would change the id of every imported record.
    public static let importNamespace = EntityID("33672f6c-4288-4233-a01c-010cfb14146e")!

    /// The id of the record imported from `identity` in `source`: stable across imports of the same data.
    ///
    /// `derived(namespace: derived(namespace: importNamespace, name: source), name: identity)`, names as
    /// UTF-8. See ``ImportSource`` for what the identity of an interval is in each system.
    public static func derived(source: ImportSystem, identity: String) -> EntityID {
        derived(namespace: source.namespace, name: Array(identity.utf8))
    }
}
