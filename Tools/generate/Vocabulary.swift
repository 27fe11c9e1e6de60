import StintCore

/// The words the generator draws tag names and comments from.
enum Vocabulary {
    /// Tag names, most used first (the generator draws them with Zipf weights).
    static let tags = [
        "development", "meetings", "email", "code-review", "planning", "support", "writing", "research",
        "design", "testing", "admin", "hiring", "interviews", "ops", "on-call", "docs", "training", "travel",
        "customer-calls", "sales", "marketing", "finance", "legal", "reading", "refactoring", "security",
        "infrastructure", "mentoring", "standup", "retro", "estimation", "prototyping", "analytics", "billing",
        "release", "triage", "onboarding", "conference", "workshop", "side-project",
    ]

    static let subjects = [
        "ticket", "call with Anna", "call with Bo", "chapter", "invoice", "PR", "incident", "spec", "slides",
        "budget", "roadmap", "bug", "migration", "benchmark", "draft", "review of", "notes for", "demo",
    ]

    static let qualifiers = [
        "follow-up", "first pass", "part 2", "wrap-up", "prep", "with the team", "async", "deep work",
        "after lunch", "blocked", "(again)", "for Q3", "for the board", "quick fix",
    ]

    /// A short comment such as "ticket #1234 follow-up".
    static func comment(using random: inout SplitMix64) -> String {
        let subject = subjects[random.zipf(subjects.count, exponent: 0.8)]
        var text = subject
        if random.chance(0.6) { text += " #\(Int.random(in: 1...9_999, using: &random))" }
        if random.chance(0.4) { text += " " + qualifiers[Int.random(in: 0..<qualifiers.count, using: &random)] }
        return text
    }
}
