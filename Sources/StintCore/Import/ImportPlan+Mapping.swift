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
            func usable(_ name: String) -> Bool {
                ImportPlan.isUsableTagName(name, maximumLength: options.maximumTagNameLength)
            }
            switch interval.source.system {
            case .watson:
                let project = interval.project ?? ""
                tagName = usable(project) ? project : nil
                projectInComment = tagName == nil && !project.isEmpty ? project : nil
                otherTags = interval.tags
                unusableNames = projectInComment.map { [$0] } ?? []
            case .timewarrior:
                let tags = interval.tags
                var chosen: Int?
                for preferred in options.preferredTags {
                    let key = preferred.lowercased()
                    if let index = tags.firstIndex(where: { $0.lowercased() == key && usable($0) }) {
                        chosen = index
                        break
                    }
                }
                chosen = chosen ?? tags.firstIndex(where: usable)
                tagName = chosen.map { tags[$0] }
                projectInComment = nil
                otherTags = tags.indices.filter { $0 != chosen }.map { tags[$0] }
                unusableNames = tags.filter { !usable($0) }
            }
        }
    }

    /// Whether `name` can be a Stint tag name: 1 to `maximumLength` characters, not only white space, no
    /// control characters.
    public static func isUsableTagName(_ name: String, maximumLength: Int = 64) -> Bool {
        !name.isEmpty && name.count <= maximumLength
            && name.unicodeScalars.contains { !$0.properties.isWhitespace }
            && !name.unicodeScalars.contains(where: isControl)
    }

    /// Unicode's control characters (general category Cc): U+0000–U+001F and U+007F–U+009F.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
