import Glibc
import PaneldBuildInfo

// The command line of paneld (subcommands) and paneld-bench (one command):
// long options (`--name VALUE`, `--name=VALUE`, flags), a list of positional
// arguments, help, and errors that say what is wrong. (swift-argument-parser did this; with the
// FoundationEssentials it links it took about 3 MB of the daemon's resident
// memory, a quarter of its budget: docs/performance.md, "Idle and memory".)

/// A bad command line: printed with the command's usage; exit status 64.
package struct ValidationError: Error, CustomStringConvertible {
    package let description: String
    package init(_ message: String) { description = message }
}

/// Ends the process with `code`, printing nothing more.
package struct ExitCode: Error {
    package let code: Int32
    package init(_ code: Int32) { self.code = code }
    package static let failure = ExitCode(1)
}

/// One option of a command: `--name VALUE` (also `--name=VALUE`), or a flag.
package struct OptionSpec {
    var name: String
    /// Nil for a flag.
    var valueName: String?
    var help: String
    /// Shown as "(default: ...)" in the help.
    var defaultText: String?
    var hidden = false
    /// Given any number of times (each value kept); otherwise the last one counts.
    var repeatable = false
    /// The command cannot run without it (shown without brackets in the usage line).
    var required = false

    package static func option(
        _ name: String, _ valueName: String? = nil, help: String, default defaultText: String? = nil,
        hidden: Bool = false, repeatable: Bool = false, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, valueName: valueName ?? name, help: help, defaultText: defaultText, hidden: hidden,
            repeatable: repeatable, required: required)
    }

    package static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// `--name <value>` (`--name` for a flag).
    var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
}

/// A command's name, help texts, options and positional arguments.
package struct CommandSpec {
    var name: String
    var abstract: String
    var discussion: String?
    var options: [OptionSpec]
    /// A list of positional arguments (any number), its name and help; nil: none.
    var arguments: (name: String, help: String)?
    /// Left out of the list of subcommands.
    var hidden = false
    /// A program of its own (`paneld-bench`) rather than a subcommand of paneld:
    /// its name, which starts the usage line instead of `paneld NAME`.
    var program: String?

    package init(
        name: String, abstract: String, discussion: String? = nil, options: [OptionSpec],
        arguments: (name: String, help: String)? = nil, hidden: Bool = false, program: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.hidden = hidden
        self.program = program
    }

    /// How the command is run: `paneld NAME`, or the program's name.
    var invocation: String { program ?? "paneld \(name)" }

    /// `paneld NAME --required <value> [--option <value>] ... [<arguments> ...]`
    /// (a program's name instead of `paneld NAME`), hidden options left out.
    var usage: String {
        var parts = [invocation]
        for o in options where !o.hidden {
            parts.append((o.required ? o.synopsis : "[\(o.synopsis)]") + (o.repeatable ? " ..." : ""))
        }
        if let arguments { parts.append("[<\(arguments.name)> ...]") }
        return parts.joined(separator: " ")
    }

    /// The text `--help` prints.
    var help: String {
        var s = "OVERVIEW: \(abstract)\n\n"
        if let discussion { s += Self.wrapped(discussion) + "\n\n" }
        s += "USAGE: \(usage)\n\n"
        var rows: [(String, String)] = []
        if let arguments { rows.append(("<\(arguments.name)>", arguments.help)) }
        if !rows.isEmpty { s += "ARGUMENTS:\n" + Self.table(rows) + "\n" }
        rows = options.filter { !$0.hidden }.map { o in
            (o.synopsis, o.help + (o.defaultText.map { " (default: \($0))" } ?? ""))
        }
        rows.append(("-h, --help", "Show help information."))
        s += "OPTIONS:\n" + Self.table(rows)
        return s
    }

    /// `text` with each line longer than `width` columns broken at spaces; a line
    /// that starts with two spaces (an example command) is kept whole, since a
    /// command broken in two cannot be copied.
    static func wrapped(_ text: String, width limit: Int = 80) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("  ") { return String(line) }
            var out = "", width = 0
            for word in line.split(separator: " ") {
                if width > 0 && width + 1 + word.count > limit {
                    out += "\n"
                    width = 0
                } else if width > 0 {
                    out += " "
                    width += 1
                }
                out += word
                width += word.count
            }
            return out
        }.joined(separator: "\n")
    }

    /// Two columns: names, then their help wrapped at 80 columns.
    static func table(_ rows: [(String, String)]) -> String {
        let indent = 26
        let pad = String(repeating: " ", count: indent)
        var s = ""
        for (name, help) in rows {
            let head = "  " + name
            // A name too long for its column has its help on the next line.
            s += head.count < indent ? head + String(repeating: " ", count: indent - head.count) : head + "\n" + pad
            s += wrapped(help, width: 80 - indent).split(separator: "\n").joined(separator: "\n" + pad) + "\n"
        }
        return s
    }
}

/// What was given on the command line for one command, by option name.
package struct Arguments {
    let spec: CommandSpec
    private var values: [String: [String]] = [:]
    package private(set) var positional: [String] = []

    /// Parses `args` (the words after the command's name). Throws on an
    /// unknown option, a missing value, a repeated single option, or
    /// positional arguments for a command that takes none.
    init(_ spec: CommandSpec, parsing args: [String]) throws(ValidationError) {
        self.spec = spec
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let word = args[i]
            i += 1
            // A negative number is a value (`paneld send -5`), not an option.
            let second = word.utf8.dropFirst().first ?? 0
            let number = second == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second)
            if onlyPositional || !word.hasPrefix("-") || word == "-" || (number && spec.arguments != nil) {
                guard spec.arguments != nil else { throw ValidationError("Unexpected argument '\(word)'") }
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            guard word.hasPrefix("--") else { throw ValidationError("Unknown option '\(word)'") }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw ValidationError("Unknown option '--\(name)'")
            }
            if option.valueName == nil {
                if inline != nil { throw ValidationError("The flag '--\(name)' takes no value") }
                values[name, default: []].append("")
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count, !args[i].hasPrefix("--") else {
                    throw ValidationError("Missing value for '\(option.synopsis)'")
                }
                value = args[i]
                i += 1
            }
            if !option.repeatable && values[name] != nil {
                throw ValidationError("The option '--\(name)' was given more than once")
            }
            values[name, default: []].append(value)
        }
    }

    /// The value of option `name`, if given.
    package func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    package func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether flag `name` was given.
    package func flag(_ name: String) -> Bool { values[name] != nil }

    /// The value of an option the command cannot do without.
    package func required(_ name: String) throws(ValidationError) -> String {
        guard let v = string(name) else { throw ValidationError("Missing expected argument '\(synopsis(name))'") }
        return v
    }

    /// The value of option `name` read by `parse` (nil when not given); a
    /// value `parse` refuses is an error naming the option.
    package func value<T>(_ name: String, _ parse: (String) -> T?) throws(ValidationError) -> T? {
        guard let s = string(name) else { return nil }
        guard let v = parse(s) else { throw ValidationError("The value '\(s)' is invalid for '\(synopsis(name))'") }
        return v
    }

    package func int(_ name: String) throws(ValidationError) -> Int? { try value(name) { Int($0) } }
    package func int64(_ name: String) throws(ValidationError) -> Int64? { try value(name) { Int64($0) } }
    package func double(_ name: String) throws(ValidationError) -> Double? { try value(name) { Double($0) } }

    private func synopsis(_ name: String) -> String {
        spec.options.first { $0.name == name }?.synopsis ?? "--\(name)"
    }
}

/// A subcommand: its specification, built from its arguments, checked, run.
package protocol PaneldCommand {
    static var spec: CommandSpec { get }
    /// Throws ``ValidationError`` for a value it cannot take.
    init(_ arguments: Arguments) throws
    /// Checks the arguments together; throws ``ValidationError``.
    func validate() throws
    func run() throws
}

extension PaneldCommand {
    package func validate() throws {}
}

/// Picks the subcommand, parses its arguments and runs it: `--help` prints
/// help (status 0); a bad command line prints the error, the usage and where
/// to find help (status 64); an error from the command prints "Error: " and
/// its description (status 1); ``ExitCode`` ends with its status.
package enum CommandLineTool {
    package static func main(
        _ args: [String], abstract: String, commands: [any PaneldCommand.Type], default fallback: any PaneldCommand.Type
    ) -> Int32 {
        func named(_ name: String) -> (any PaneldCommand.Type)? { commands.first { $0.spec.name == name } }
        var args = args
        if args == ["--version"] || args == ["version"] {
            print(versionText)
            return 0
        }
        if args.first == "--help" || args.first == "-h" || args == ["help"] {
            print(rootHelp(abstract: abstract, commands: commands, default: fallback), terminator: "")
            return 0
        }
        if args.first == "help", args.count == 2 {
            guard let command = named(args[1]) else { return unknown(args[1]) }
            print(command.spec.help, terminator: "")
            return 0
        }
        var command = fallback
        if let first = args.first, let c = named(first) {
            command = c
            args.removeFirst()
        } else if let first = args.first, !first.hasPrefix("-") {
            return unknown(first)
        }
        return run(command, args)

        func unknown(_ name: String) -> Int32 {
            let names = commands.filter { !$0.spec.hidden }.map { $0.spec.name }.joined(separator: ", ")
            return usageError("Unknown subcommand '\(name)' (subcommands: \(names))", "paneld <subcommand>", "paneld")
        }
    }

    /// A program that is one command (`paneld-bench`): `--version`, else `command`
    /// run with `args` as a subcommand is.
    package static func main(_ args: [String], command: any PaneldCommand.Type) -> Int32 {
        if args == ["--version"] {
            print(versionText)
            return 0
        }
        return run(command, args)
    }

    /// Parses, checks and runs command `C` with `args`: the process's exit status.
    private static func run<C: PaneldCommand>(_: C.Type, _ args: [String]) -> Int32 {
        let spec = C.spec
        if args.contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(spec.help, terminator: "")
            return 0
        }
        let command: C
        do {
            command = try C(try Arguments(spec, parsing: args))
            try command.validate()
        } catch let error as ValidationError {
            return usageError(error.description, spec.usage, spec.invocation)
        } catch {
            return failure(error)
        }
        do {
            try command.run()
            return 0
        } catch {
            return failure(error)
        }
    }

    private static func usageError(_ message: String, _ usage: String, _ command: String) -> Int32 {
        if Log.journal {
            Log.error(message)
        } else {
            Log.writeStderr("Error: \(message)\nUsage: \(usage)\n  See '\(command) --help' for more information.\n")
        }
        return 64
    }

    /// The error that ends a command: on a terminal `Error: ...`; in the journal each
    /// line of it (a layout's issues are one per line) at priority err, so
    /// `journalctl -p err` shows why paneld did not start.
    private static func failure(_ error: any Error) -> Int32 {
        if let exit = error as? ExitCode { return exit.code }
        if Log.journal {
            for line in "\(error)".split(separator: "\n") { Log.error(String(line)) }
        } else {
            Log.writeStderr("Error: \(error)\n")
        }
        return 1
    }

    /// `paneld 0.9.0 (git 0123456789ab)`: the package version and the revision built.
    static var versionText: String {
        "paneld \(String(cString: paneld_version)) (git \(String(cString: paneld_git_revision)))"
    }

    static func rootHelp(abstract: String, commands: [any PaneldCommand.Type], default fallback: any PaneldCommand.Type)
        -> String
    {
        var s = "OVERVIEW: \(abstract)\n\nUSAGE: paneld <subcommand>\n\nOPTIONS:\n"
        s += CommandSpec.table([
            ("-h, --help", "Show help information."), ("--version", "Show the version and the git revision."),
        ])
        s += "\nSUBCOMMANDS:\n"
        s += CommandSpec.table(
            commands.filter { !$0.spec.hidden }.map { c in
                (c.spec.name + (ObjectIdentifier(c) == ObjectIdentifier(fallback) ? " (default)" : ""), c.spec.abstract)
            })
        s += "\n  See 'paneld help <subcommand>' for detailed help.\n"
        return s
    }
}
