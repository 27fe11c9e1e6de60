import StintCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `stint` command line as a library: the executable's `main.swift` calls `StintCLI.main()`, tests
/// and embedding apps call `run(arguments:host:)` with a host of their own.
public enum StintCLI {
    /// Runs the process's command line on the live host and returns the exit status.
    public static func main() -> Int32 {
        let host = Host.live
        // `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD; refuse them instead of
        // storing a mangled name or comment.
        if let position = firstArgumentNotInUTF8() {
            report(
                .usage(
                    "argument \(position) is not valid UTF-8 text; pass names, comments and times in UTF-8",
                    verb: nil), to: host)
            host.standardError.flush()
            return ExitStatus.usage
        }
        // The environment is decoded the same way: a log path in STINT_LOG would name another directory.
        if let name = firstVariableNotInUTF8() {
            report(
                .usage(
                    "the environment variable \(name) is not valid UTF-8 text; Stint reads paths and times from it: "
                        + "set it in UTF-8, or unset it", verb: nil), to: host)
            host.standardError.flush()
            return ExitStatus.usage
        }
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()), host: host)
        host.standardOutput.flush()
        host.standardError.flush()
        return status
    }

    /// Runs one command line (without the program name) and returns its exit status: 0 ok, 1 refused or
    /// failed, 64 usage error, 65 damaged data.
    public static func run(arguments: [String], host: Host) -> Int32 {
        if arguments == ["--version"] {
            host.standardOutput.write(StintVersion.line)
            return ExitStatus.ok
        }
        let registry = VerbRegistry(verbs: allVerbs)
        let parser = ArgumentParser(registry: registry)
        let help = HelpRenderer(registry: registry)
        do throws(CLIError) {
            let parsed = try parser.parse(arguments)
            if let group = parsed.group {
                host.standardOutput.write(help.groupHelp(group))
                return ExitStatus.ok
            }
            guard let spec = parsed.spec, let type = registry.type(for: spec) else {
                host.standardOutput.write(help.toolHelp())
                return ExitStatus.ok
            }
            if parsed.globals.help {
                host.standardOutput.write(help.verbHelp(spec))
                return ExitStatus.ok
            }
            if parsed.globals.json, let reason = spec.jsonUnavailable {
                throw CLIError.usage("'stint \(spec.name)' has no JSON form: \(reason)", verb: spec.name)
            }
            let verb = try type.init(parsed.arguments)
            let context = try CommandContext(host: host, globals: parsed.globals, registry: registry)
            do throws(CLIError) {
                try verb.run(context)
            } catch {
                var error = error
                if error.code == .usage, error.verb == nil { error.verb = spec.name }
                throw error
            }
            return ExitStatus.ok
        } catch {
            report(error, to: host)
            return error.exitStatus
        }
    }

    /// The environment variables whose values Stint uses as paths, zones or times.
    static let variablesReadAsText = [
        "STINT_LOG", "XDG_DATA_HOME", "HOME", "WATSON_DIR", "XDG_CONFIG_HOME", "TZ", "STINT_NOW",
    ]

    /// The first of ``variablesReadAsText`` whose bytes are not valid UTF-8, if any.
    static func firstVariableNotInUTF8() -> String? {
        variablesReadAsText.first { name in
            guard let value = getenv(name) else { return false }
            let bytes = UnsafeBufferPointer(start: value, count: strlen(value)).map { UInt8(bitPattern: $0) }
            return String(validating: bytes, as: UTF8.self) == nil
        }
    }

    /// The 1-based position of the first command-line argument whose bytes are not valid UTF-8, if any.
    static func firstArgumentNotInUTF8() -> Int? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            var bytes: [UInt8] = []
            var cursor = argument
            while cursor.pointee != 0 {
                bytes.append(UInt8(bitPattern: cursor.pointee))
                cursor += 1
            }
            if String(validating: bytes, as: UTF8.self) == nil { return index }
        }
        return nil
    }

    static func report(_ error: CLIError, to host: Host) {
        var text = "error: \(error.message)\n"
        for line in error.details { text += "  \(line)\n" }
        if error.code == .usage {
            text += error.verb.map { "See 'stint \($0) --help'.\n" } ?? "See 'stint --help'.\n"
        }
        host.standardError.write(text)
    }
}
