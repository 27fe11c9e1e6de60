/// The fold's part of importing: the provenance of imported records and the inverses of import events.
extension LogState {
    /// The provenance of `record` as imported from `source`, with its tag's current name.
    func provenance(_ record: Record, _ source: ImportSource) -> ImportProvenance {
        ImportProvenance(source: source, values: record, tagName: record.tagId.flatMap { tags[$0]?.name })
    }

    /// The events that bring back an imported record and its provenance as they are now: the source's
    /// values (`record.imported` when the event to revert removes the record, `record.reimported` when it
    /// changes it), then `record.edited` with the record's own values when edits made in Stint made them
    /// differ from the source's.
    ///
    /// The inverse of `record.unimported` (`removing`) and of `record.reimported`, computed before either
    /// is applied.
    func importInverse(of id: EntityID, removing: Bool) throws(DomainError) -> [DomainEvent] {
        guard let record = records[id], let provenance = importProvenance[id] else {
            throw DomainError(.inconsistentEvent, "record \(id) does not exist, is deleted or was not imported")
        }
        return Self.importInverse(of: record, provenance, removing: removing)
    }

    /// ``importInverse(of:removing:)`` of the imported `record`, whose provenance is `provenance`.
    static func importInverse(of record: Record, _ provenance: ImportProvenance, removing: Bool) -> [DomainEvent] {
        var events: [DomainEvent] = [
            removing
                ? .recordImported(provenance.values, source: provenance.source)
                : .recordReimported(provenance.values, source: provenance.source)
        ]
        if record != provenance.values {
            events.append(.recordEdited(record, fields: RecordFields(changedFrom: provenance.values, to: record)))
        }
        return events
    }
}
