extension ImportPlan {
    /// Builds a record's comment from the annotation and the names that are not its tag.
    ///
    /// Lines, each present only when it has content, joined by newlines:
    /// 1. the annotation, with CR LF and CR turned into LF and other control characters (but tab) into U+FFFD;
    /// 2. `Project: <name>` for a Watson project that cannot be the tag;
    /// 3. `Tags: <tag>, <tag>` for the tags that are not the Stint tag, in the source's order.
    /// A name is written as it is unless it is empty, starts or ends with white space, or contains a comma,
    /// a double quote, a backslash or a control character; then it is written as a JSON string
    /// (`"code, review"`), so the line can be read back unambiguously. The text is then normalized as the
    /// domain does (surrounding white space trimmed, nil when nothing is left) and, when longer than
    /// ``InputLimits/maximumCommentLength``, cut to one character less followed by "…".
    enum CommentBuilder {
        struct Built {
            var comment: String?
            /// The comment before it was cut; nil when it was not.
            var fullComment: String?
            var replacedControlCharacters: Bool
        }

        static func build(_ mapping: Mapping, annotation: String?) -> Built {
            var lines: [String] = []
            var replaced = false
            if let annotation, !annotation.isEmpty {
                let (clean, changed) = sanitize(annotation)
                lines.append(clean)
                replaced = changed
            }
            if let project = mapping.projectInComment { lines.append("Project: " + quote(project)) }
            if !mapping.otherTags.isEmpty {
                lines.append("Tags: " + mapping.otherTags.map(quote).joined(separator: ", "))
            }
            let full = InputLimits.trimmed(lines.joined(separator: "\n"))
            guard !full.isEmpty else {
                return Built(comment: nil, fullComment: nil, replacedControlCharacters: replaced)
            }
            guard full.count > InputLimits.maximumCommentLength else {
                return Built(comment: full, fullComment: nil, replacedControlCharacters: replaced)
            }
            let cut = String(full.prefix(InputLimits.maximumCommentLength - 1)) + "…"
            return Built(comment: cut, fullComment: full, replacedControlCharacters: replaced)
        }

        /// The text with CR LF and CR as LF, and control characters other than LF and tab as U+FFFD.
        static func sanitize(_ text: String) -> (String, Bool) {
            var output = String.UnicodeScalarView()
            var changed = false
            var previousWasCR = false
            for scalar in text.unicodeScalars {
                defer { previousWasCR = scalar == "\r" }
                switch scalar {
                case "\n":
                    if !previousWasCR { output.append(scalar) }
                case "\t":
                    output.append(scalar)
                case "\r":
                    output.append("\n")
                    changed = true
                case _ where InputLimits.isControl(scalar):
                    output.append("\u{FFFD}")
                    changed = true
                default:
                    output.append(scalar)
                }
            }
            return (String(output), changed)
        }

        /// A name as written in a `Tags:` or `Project:` line.
        static func quote(_ name: String) -> String {
            let needsQuotes =
                name.isEmpty || name.unicodeScalars.first!.properties.isWhitespace
                || name.unicodeScalars.last!.properties.isWhitespace
                || name.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\\" || InputLimits.isControl($0) }
            return needsQuotes ? JSON.string(name).encodedString : name
        }
    }
}
