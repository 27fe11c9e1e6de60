extension ImportPlan {
    /// How one interval's names map: the Stint tag, and what goes into the comment instead.
    struct Mapping {
        var tagName: String?
        /// A Watson project that cannot be a tag name, written as `Project: …`.
        var projectInComment: String?
        /// The tags that are not the Stint tag, written as `Tags: …`.
        var otherTags: [String]
        /// The names that went into the comment because they cannot be tag names.
        var unusableNames: [String]

        init(_ interval: ImportedInterval, options: ImportOptions) {
            func usable(_ name: String) -> Bool { ImportPlan.tagName(name) != nil }
            switch interval.source.system {
            case .watson:
                let project = interval.project ?? ""
                tagName = ImportPlan.tagName(project)
                projectInComment = tagName == nil && !project.isEmpty ? project : nil
                otherTags = interval.tags
                unusableNames = projectInComment.map { [$0] } ?? []
            case .timewarrior:
                let tags = interval.tags
                var chosen: Int?
                for preferred in options.preferredTags {
                    guard let key = ImportPlan.tagName(preferred).map(InputLimits.nameKey) else { continue }
                    if let index = tags.firstIndex(where: { ImportPlan.tagName($0).map(InputLimits.nameKey) == key }) {
                        chosen = index
                        break
                    }
                }
                chosen = chosen ?? tags.firstIndex(where: usable)
                tagName = chosen.flatMap { ImportPlan.tagName(tags[$0]) }
                projectInComment = nil
                otherTags = tags.indices.filter { $0 != chosen }.map { tags[$0] }
                unusableNames = tags.filter { !usable($0) }
            }
        }
    }

    /// The Stint tag name `name` becomes, as the domain normalizes it (surrounding white space trimmed);
    /// nil when it cannot be one: empty or blank, over ``InputLimits/maximumTagNameLength`` characters, or
    /// with a control character (see ``InputLimits/tagName(_:)``).
    ///
    /// A name reserved for a summary row (``InputLimits/reservedTagNames``: "Untagged", "Other", in any
    /// case) gets ``reservedNameSuffix``: `Other` becomes `Other (imported)`, the same on every import.
    public static func tagName(_ name: String) -> String? {
        guard let usable = try? InputLimits.tagName(name) else { return nil }
        return InputLimits.isReservedTagName(usable) ? usable + reservedNameSuffix : usable
    }

    /// What a reserved tag name gets on import.
    public static let reservedNameSuffix = " (imported)"
}
