/// A time tracker Stint imports history from.
public enum ImportSystem: String, Hashable, Sendable, CaseIterable {
    /// Timewarrior (`timew export`).
    case timewarrior
    /// Watson (its `frames` and `state` files).
    case watson

    /// The namespace of the ids of records imported from this system, derived from
    /// ``EntityID/importNamespace`` and the raw value.
    public var namespace: EntityID {
        switch self {
        case .timewarrior: return ImportSystem.timewarriorNamespace
        case .watson: return ImportSystem.watsonNamespace
        }
    }

    /// The system's name as people write it: `Timewarrior`, `Watson`.
    public var title: String {
        switch self {
        case .timewarrior: return "Timewarrior"
        case .watson: return "Watson"
        }
    }

    private static let timewarriorNamespace = EntityID.derived(
        namespace: EntityID.importNamespace, name: Array(ImportSystem.timewarrior.rawValue.utf8))
    private static let watsonNamespace = EntityID.derived(
        namespace: EntityID.importNamespace, name: Array(ImportSystem.watson.rawValue.utf8))
}

/// Where an imported interval came from: its system and its identity there.
///
/// The identity is what stays the same when the interval is edited in the source, so that importing
/// again finds the same record:
/// - Timewarrior: the canonical text of the start instant (`2026-11-27T14:00:00.000Z`). Timewarrior's
///   own ids are positions that change with every new interval, and its intervals never overlap, so the
///   start names an interval; editing the start in Timewarrior makes it a different interval.
/// - Watson, a frame: its frame id as written in the `frames` file.
/// - Watson, the running frame of the `state` file: ``WatsonFrames/runningIdentity(start:project:)``.
public struct ImportSource: Hashable, Sendable {
    public var system: ImportSystem
    public var identity: String

    public init(system: ImportSystem, identity: String) {
        self.system = system
        self.identity = identity
    }

    /// The id of the record this interval becomes: ``EntityID/derived(source:identity:)``.
    public var recordId: EntityID {
        EntityID.derived(source: system, identity: identity)
    }
}
