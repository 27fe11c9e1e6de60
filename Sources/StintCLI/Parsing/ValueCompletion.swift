/// What a shell completes for an argument or an option's value.
enum ValueCompletion: Sendable, Equatable {
    /// Nothing: free text (a comment, a time, a new name).
    case nothing
    /// The names of the tags that are not deleted.
    case tags
    /// The ids of the running records.
    case runningRecords
    /// The ids of records, most recent first.
    case records
    /// The verbs of the tool.
    case verbs
    /// File names (the shell's own completion).
    case files
    /// IANA time zone names.
    case timeZones
    /// One of a fixed list.
    case choices([String])

    /// The completion a placeholder implies, for specs that do not say: `TAG` a tag, `RECORD_ID` or `ID` a
    /// record, `VERB` a verb, `PATH`, `FILE` or `DIR` a file, `ZONE` a time zone, anything else nothing.
    ///
    /// `NAME` is a tag only where a spec says so (`tag add NAME` names a new one).
    static func inferred(from placeholder: String) -> ValueCompletion {
        switch placeholder {
        case "TAG": return .tags
        case "RECORD_ID", "ID": return .records
        case "VERB": return .verbs
        case "PATH", "FILE", "DIR", "DIRECTORY": return .files
        case "ZONE": return .timeZones
        default: return .nothing
        }
    }
}
