import Foundation
import Testing

@testable import PaneldCore
@testable import paneld

/// paneld(1), as the package installs it, names every command and option the
/// command line has, every protocol command, and the layout reference the
/// package installs beside it (whose keys `LayoutDocsTests` checks).
@Suite struct ManPageTests {
    static let page =
        (try? String(contentsOfFile: FolderCycleTests.root + "/packaging/debian/paneld.1", encoding: .utf8)) ?? ""

    /// troff escapes a minus sign as `\-`.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }

    @Test func namesEveryCommandAndOption() {
        #expect(Self.page.count > 4_000)
        for command in Paneld.commands where !command.spec.hidden {
            #expect(Self.page.contains(".B paneld " + Self.roff(command.spec.name)), "command \(command.spec.name)")
            for option in command.spec.options where !option.hidden {
                #expect(
                    Self.page.contains("\\-\\-" + Self.roff(option.name)), "\(command.spec.name) --\(option.name)")
            }
        }
        #expect(Self.page.contains("\\-\\-version"))
    }

    @Test func hasTheSectionsAManPageNeeds() {
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "PROTOCOL", "INPUTS", "ENVIRONMENT", "FILES",
            "EXIT STATUS", "SEE ALSO",
        ] {
            #expect(Self.page.contains(".SH \(section)\n"), "section \(section)")
        }
        for word in ["get", "list", "page", "reload", "END", "ERR", "PANELD_SOCKET", "STATE_DIRECTORY"] {
            #expect(Self.page.contains(word), "\(word)")
        }
    }

    /// The reference the page points to is installed by the package.
    @Test func theLayoutReferenceIsInstalled() throws {
        #expect(Self.page.contains("/usr/share/doc/paneld/layout.md"))
        let script = try String(contentsOfFile: FolderCycleTests.root + "/packaging/build-deb.sh", encoding: .utf8)
        #expect(script.contains("\"$ROOT/docs/layout.md\" \"$PKG/usr/share/doc/paneld/layout.md\""))
    }
}
