import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

/// paneld's own command-line parser (`Arguments`, `CommandLineTool`): what
/// each form of an option gives, which command lines are refused and with
/// which message, and the exit statuses.
@Suite struct ArgumentsTests {
    static let spec = CommandSpec(
        name: "try", abstract: "A command to parse with.", discussion: "Some words.",
        options: [
            .option("name", help: "A name.", default: "x"),
            .option("count", help: "How many."),
            .option("set", "K=V", help: "Repeatable.", repeatable: true),
            .option("secret", help: "Not shown.", hidden: true),
            .flag("loud", help: "A flag."),
        ])

    static let withArguments = CommandSpec(
        name: "list", abstract: "Takes words.", options: [.flag("loud", help: "A flag.")],
        arguments: ("words", "Any words."))

    @Test func optionsFlagsAndRepeatsParse() throws {
        let a = try Arguments(
            Self.spec, parsing: ["--name", "a b", "--count=-3", "--set", "k=1", "--set=k=2", "--loud", "--secret", ""])
        #expect(a.string("name") == "a b")
        #expect(try a.int("count") == -3)
        #expect(a.strings("set") == ["k=1", "k=2"])
        #expect(a.flag("loud"))
        #expect(a.string("secret") == "")
        let none = try Arguments(Self.spec, parsing: [])
        #expect(none.string("name") == nil && !none.flag("loud") && none.strings("set").isEmpty)
        #expect(try none.int("count") == nil)
    }

    @Test func positionalArgumentsOnlyWhereACommandTakesThem() throws {
        let a = try Arguments(Self.withArguments, parsing: ["one", "-5", "--loud", "-.5", "-", "--", "--two"])
        #expect(a.positional == ["one", "-5", "-.5", "-", "--two"])
        #expect(a.flag("loud"))
        #expect(throws: ValidationError.self) { try Arguments(Self.spec, parsing: ["stray"]) }
        #expect(throws: ValidationError.self) { try Arguments(Self.spec, parsing: ["-5"]) }
        #expect(throws: ValidationError.self) { try Arguments(Self.withArguments, parsing: ["-x"]) }
    }

    @Test func badCommandLinesSayWhatIsWrong() {
        let cases: [([String], String)] = [
            (["--nope"], "Unknown option '--nope'"),
            (["-n"], "Unknown option '-n'"),
            (["--name"], "Missing value for '--name <name>'"),
            (["--name", "--loud"], "Missing value for '--name <name>'"),
            (["--name", "a", "--name", "b"], "The option '--name' was given more than once"),
            (["--loud=yes"], "The flag '--loud' takes no value"),
            (["stray"], "Unexpected argument 'stray'"),
        ]
        for (args, message) in cases {
            do {
                _ = try Arguments(Self.spec, parsing: args)
                Issue.record("\(args) parsed")
            } catch {
                #expect(error.description == message, "\(args)")
            }
        }
    }

    @Test func requiredAndTypedValuesNameTheOption() throws {
        let a = try Arguments(Self.spec, parsing: ["--count", "many"])
        #expect(throws: ValidationError.self) { try a.required("name") }
        do {
            _ = try a.required("name")
        } catch {
            #expect(error.description == "Missing expected argument '--name <name>'")
        }
        do {
            _ = try a.int("count")
            Issue.record("'many' read as an Int")
        } catch {
            #expect(error.description == "The value 'many' is invalid for '--count <count>'")
        }
        #expect(try Arguments(Self.spec, parsing: ["--count", "2.5"]).double("count") == 2.5)
    }

    @Test func helpListsTheShownOptionsWithDefaults() {
        let help = Self.spec.help
        #expect(help.hasPrefix("OVERVIEW: A command to parse with.\n\nSome words.\n\nUSAGE: paneld try "))
        #expect(help.contains("--name <name>") && help.contains("A name. (default: x)"))
        #expect(help.contains("--set <K=V>") && help.contains("--loud") && help.contains("-h, --help"))
        #expect(!help.contains("secret"))
        #expect(Self.spec.usage == "paneld try [--name <name>] [--count <count>] [--set <K=V>] ... [--loud]")
        #expect(Self.withArguments.usage == "paneld list [--loud] [<words> ...]")
        for line in help.split(separator: "\n") { #expect(line.count <= 80 || line.hasPrefix("USAGE:"), "\(line)") }
    }

    /// Required options show without brackets; example lines (two spaces in) are
    /// never broken, prose is wrapped at 80 columns.
    @Test func usageShowsRequiredOptionsAndHelpKeepsExamplesWhole() {
        let spec = CommandSpec(
            name: "draw", abstract: "Draws.",
            discussion: """
                A long sentence that goes on and on about what this command does, so that it must wrap somewhere.

                Example:
                  paneld draw --output /a/very/long/path/to/a/picture/that/is/longer/than/eighty/columns.png
                """,
            options: [.option("output", help: "Where.", required: true), .option("size", help: "How big.")])
        #expect(spec.usage == "paneld draw --output <output> [--size <size>]")
        let lines = spec.help.split(separator: "\n")
        #expect(
            lines.contains(
                "  paneld draw --output /a/very/long/path/to/a/picture/that/is/longer/than/eighty/columns.png"))
        #expect(lines.filter { !$0.hasPrefix("  paneld") }.allSatisfy { $0.count <= 80 }, "\(spec.help)")
    }

    /// `paneld --version`: the package version (the one packaging/VERSION gives the
    /// Debian package) and the git revision.
    @Test func versionNamesThePackageVersionAndRevision() throws {
        // This file is ROOT/Tests/paneldTests/ArgumentsTests.swift.
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
            .joined(separator: "/")
        let packaged = String(decoding: try FileIO.read(root + "/packaging/VERSION"), as: UTF8.self)
            .filter { !$0.isWhitespace }
        let text = CommandLineTool.versionText
        #expect(text.hasPrefix("paneld \(packaged) (git "), "\(text)")
        #expect(!text.contains("unknown"), "built from a git checkout: \(text)")
    }

    /// A command that records what it was given and ends as told.
    struct Probe: PaneldCommand {
        static let spec = CommandSpec(
            name: "probe", abstract: "Records.",
            options: [.option("end", help: "ok, fail, exit3 or invalid."), .option("n", help: "A number.")])
        nonisolated(unsafe) static var ran: [String] = []
        let end: String
        let n: Int?

        init(_ arguments: Arguments) throws {
            end = arguments.string("end") ?? "ok"
            n = try arguments.int("n")
        }

        func validate() throws {
            if end == "invalid" { throw ValidationError("--end invalid is refused") }
        }

        func run() throws {
            Probe.ran.append(end)
            switch end {
            case "fail": throw TestFailure("it failed")
            case "exit3": throw ExitCode(3)
            default: break
            }
        }
    }

    struct Other: PaneldCommand {
        static let spec = CommandSpec(name: "other", abstract: "Hidden.", options: [], hidden: true)
        init(_ arguments: Arguments) {}
        func run() throws { Probe.ran.append("other") }
    }

    func main(_ args: [String]) -> Int32 {
        CommandLineTool.main(args, abstract: "Tests.", commands: [Probe.self, Other.self], default: Probe.self)
    }

    @Test func commandsRunOrEndWithTheRightStatus() {
        Probe.ran = []
        #expect(main([]) == 0)  // the default command
        #expect(main(["probe", "--end", "ok"]) == 0)
        #expect(main(["--end", "fail"]) == 1)
        #expect(main(["probe", "--end", "exit3"]) == 3)
        #expect(main(["other"]) == 0)
        #expect(Probe.ran == ["ok", "ok", "fail", "exit3", "other"])
        // Refused before anything runs: 64.
        #expect(main(["probe", "--end", "invalid"]) == 64)
        #expect(main(["probe", "--n", "x"]) == 64)
        #expect(main(["nothing"]) == 64)
        #expect(main(["probe", "--bad"]) == 64)
        #expect(main(["help", "nothing"]) == 64)
        #expect(Probe.ran.count == 5)
        // Help, not a run.
        #expect(main(["--help"]) == 0 && main(["help", "probe"]) == 0 && main(["probe", "-h"]) == 0)
        #expect(Probe.ran.count == 5)
        let root = CommandLineTool.rootHelp(
            abstract: "Tests.", commands: [Probe.self, Other.self], default: Probe.self)
        #expect(root.contains("probe (default)") && !root.contains("other"))
    }
}
