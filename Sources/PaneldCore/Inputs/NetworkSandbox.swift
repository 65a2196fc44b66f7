import Glibc

/// What a network input's failure means under the packaged unit, whose sandbox
/// refuses Internet sockets (`RestrictAddressFamilies=AF_UNIX`: EAFNOSUPPORT) until
/// the drop-in `network.conf` is installed, and then addresses outside its
/// `IPAddressAllow=` (EPERM). Each is told with the setting that allows it.
enum NetworkSandbox {
    /// Where the package installs the drop-in.
    static let dropIn = "/usr/share/doc/paneld/examples/network.conf"

    /// The hint for a failed network call's errno, or nil when `code` says nothing
    /// about the sandbox.
    static func hint(forErrno code: Int32) -> String? {
        switch code {
        case EAFNOSUPPORT:
            return "Internet sockets are not allowed here; under systemd, install the drop-in \(dropIn)"
        case EPERM:
            return "the address is not allowed here; under systemd, add it to IPAddressAllow= in the network drop-in"
        default:
            return nil
        }
    }

    /// `error`'s text, followed by its hint when it has one.
    static func explain(_ error: Errno) -> String {
        guard let h = hint(forErrno: error.code) else { return "\(error)" }
        return "\(error) (\(h))"
    }
}
