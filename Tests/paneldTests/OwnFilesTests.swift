import Foundation
import Glibc
import PanelGauge
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// Every file paneld creates or replaces goes through one home
/// (`FileIO.writeAtomically` for files, `UnixSocket` for socket files,
/// `DeviceNode.open` for the display's device nodes), and that home never
/// replaces, truncates or writes through what is not paneld's own.
@Suite struct OwnFilesTests {
    /// The calls that create, replace, remove or write through a path.
    static let writeCalls = [
        "rename(", "renameat(", "unlink(", "unlinkat(", "rmdir(", "mkdir(", "mkdtemp(", "mkstemp(", "mkfifo(",
        "mknod(", "symlink(", "link(", "truncate(", "ftruncate(", "creat(", "fopen(", "chmod(", "fchmod(",
        "chown(", "fchown(", "O_CREAT", "O_TRUNC", "O_WRONLY", "O_RDWR", "O_APPEND", "Glibc.bind(", "bind(s,",
        "open(",
    ]

    /// Where each write call may be, and why. Anything found elsewhere, or more
    /// often than listed, fails `everyWriteSiteIsInItsHome`.
    static let homes: [String: (calls: [String: Int], why: String)] = [
        "PanelGauge/PNG/PNG.swift": (
            ["mkstemp(": 1, "fchmod(": 1, "unlink(": 4, "rename(": 1, "open(": 2],
            "FileIO: the one writer of files (temporary file, rename over a regular file only) and its readers"
        ),
        "PaneldCore/System/UnixSocket.swift": (
            ["unlink(": 3, "Glibc.bind(": 1],
            "socket files paneld creates, removed only while still a socket"
        ),
        "PaneldCore/Inputs/StatsdInput.swift": (["bind(s,": 1], "the statsd UDP port: no file"),
        "PanelDisplay/DeviceNode.swift": (
            ["open(": 2], "the display's device nodes, kept open only when they are character devices"
        ),
        "PanelDisplay/DRM/LiveDRMSyscalls.swift": (["O_RDWR": 1], "a DRM card through DeviceNode"),
        "PanelDisplay/FBDev/LiveFBSyscalls.swift": (
            ["O_RDWR": 1, "O_WRONLY": 1, "fopen(": 1],
            "a framebuffer and the console through DeviceNode; a framebuffer's sysfs name read (mode \"re\")"
        ),
        "PanelDisplay/DRM/VirtualTerminal.swift": (["O_WRONLY": 1], "the console through DeviceNode"),
        "PanelDisplay/Output/Backlight.swift": (
            ["O_WRONLY": 1, "open(": 2],
            "a backlight's brightness and bl_power, named inside /sys/class/backlight: opened without O_CREAT, not through a link, only when a regular file (and max_brightness, read)"
        ),
        "PanelDisplayFakes/FakeDRM.swift": (
            ["open(": 1], "the tests' scripted DRM device: an error message naming open; it opens nothing"
        ),
        "PanelDisplayFakes/FakeFB.swift": (
            ["open(": 3], "the tests' scripted framebuffer: its own open (a table entry) and a message; no file"
        ),
        "paneld-bench/Benchmark.swift": (
            ["mkdtemp(": 1, "rmdir(": 1], "the benchmark's own temporary folder (not installed)"
        ),
    ]

    /// Counts each write call in each source file (comment lines aside) and
    /// compares with `homes`; a new write site outside its home fails with its file.
    @Test func everyWriteSiteIsInItsHome() throws {
        let root = FolderCycleTests.root + "/Sources"
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
            $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h")
        }
        #expect(files.count > 50)
        var found: [String: [String: Int]] = [:]
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.drop(while: { $0 == " " })
                if code.hasPrefix("//") || code.hasPrefix("*") || code.hasPrefix("/*") { continue }
                for call in Self.writeCalls {
                    var rest = Substring(code)
                    while let r = rest.range(of: call) {
                        // A call, not the end of a longer name (`mkstemp(` holds no `creat(`...).
                        // A C call: not a method (`sys.open(`), not a declaration, not `open()` of Swift.
                        let head = rest[..<r.lowerBound]
                        let before = head.last
                        let isCCall =
                            before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "." }) ?? true
                            && !head.hasSuffix("func ")
                            && !(call.hasSuffix("(") && rest[r.upperBound...].hasPrefix(")"))
                        if isCCall || head.hasSuffix("Glibc.") {
                            found[file, default: [:]][call, default: 0] += 1
                        }
                        rest = rest[r.upperBound...]
                    }
                }
            }
        }
        for (file, calls) in found.sorted(by: { $0.key < $1.key }) {
            guard let home = Self.homes[file] else {
                Issue.record("\(file) writes files outside their home: \(calls.sorted { $0.key < $1.key })")
                continue
            }
            for (call, n) in calls where n > home.calls[call] ?? 0 {
                Issue.record("\(file): \(n) x \(call), its home allows \(home.calls[call] ?? 0) (\(home.why))")
            }
        }
        for (file, home) in Self.homes where found[file] != home.calls {
            Issue.record("\(file): expected \(home.calls), found \(found[file] ?? [:]): update the list")
        }
    }

    /// What is never replaced: a FIFO, a symlink (to a file or a directory), a
    /// directory and, as root, a character device. Each stays as it was.
    static func foreignThings(in dir: TempDirectory) -> [(path: String, type: FileIO.FileType)] {
        var out: [(String, FileIO.FileType)] = []
        let fifo = dir.file("fifo.png")
        if mkfifo(fifo, 0o600) == 0 { out.append((fifo, .fifo)) }
        try? dir.write("target", "keep")
        let link = dir.file("link.png")
        if symlink(dir.file("target"), link) == 0 { out.append((link, .symbolicLink)) }
        let folder = dir.file("folder.png")
        if mkdir(folder, 0o700) == 0 { out.append((folder, .directory)) }
        let node = dir.file("null.png")
        if geteuid() == 0, mknod(node, S_IFCHR | 0o600, dev_t(0x103)) == 0 { out.append((node, .characterDevice)) }
        return out
    }

    @Test func writeAtomicallyReplacesOnlyRegularFiles() throws {
        let dir = TempDirectory()
        let things = Self.foreignThings(in: dir)
        #expect(things.count >= 3)
        for (path, type) in things {
            #expect(throws: FileIO.Error.self) { try FileIO.writeAtomically([1, 2, 3], to: path) }
            #expect(FileIO.fileType(path) == type, "\(path) is still \(type)")
        }
        #expect(String(decoding: try FileIO.read(dir.file("target")), as: UTF8.self) == "keep")
        rmdir(dir.file("folder.png"))  // TempDirectory removes files only
        // No temporary file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".png.") }
        #expect(left.isEmpty, "\(left)")
        // A regular file is replaced.
        try dir.write("plain.png", "old")
        try FileIO.writeAtomically([0x41], to: dir.file("plain.png"))
        #expect(try FileIO.read(dir.file("plain.png")) == [0x41])
    }

    /// `paneld render --output` and the daemon's `--output png:PATH` refuse what is
    /// not a regular file with a clear error, and leave it as it was.
    @Test func pngOutputsRefuseWhatIsNotTheirs() throws {
        let dir = TempDirectory()
        for (path, type) in Self.foreignThings(in: dir) {
            let r = try runPaneld(["render", "--output", path], in: dir)
            #expect(r.status == 1 && r.err.contains("\(path) is \(type), not a regular file"), "\(r)")
            #expect(FileIO.fileType(path) == type)
            let d = try runPaneld(["run", "--output", "png:" + path, "--socket", dir.file("s.sock")], in: dir)
            #expect(d.status == 1 && d.err.contains("\(path) is \(type), not a regular file"), "\(d)")
            #expect(FileIO.fileType(path) == type)
        }
        #expect(String(decoding: try FileIO.read(dir.file("target")), as: UTF8.self) == "keep")
        rmdir(dir.file("folder.png"))
    }

    /// A path that names no device is refused by the display's opener, never written through.
    @Test func deviceNodesMustBeDevices() throws {
        let dir = TempDirectory()
        try dir.write("fb0", "not a framebuffer")
        #expect(throws: DRMError.self) { try DeviceNode.open(dir.file("fb0"), flags: O_RDWR) }
        #expect(String(decoding: try FileIO.read(dir.file("fb0")), as: UTF8.self) == "not a framebuffer")
        let fd = try DeviceNode.open("/dev/null", flags: O_RDWR)
        close(fd)
    }
}
