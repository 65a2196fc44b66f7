#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed DRM, ioctl, mmap or file call: which call, on what, and the errno.
///
/// Every error paneld's display side reports goes through this type so the
/// message always names the operation and the kernel's reason.
public struct DRMError: Error, Equatable, CustomStringConvertible {
    /// The call that failed, with its subject, e.g. `drmModeSetCrtc(crtc 38)`.
    public var operation: String
    /// The errno the call left, or 0 when the failure was not a syscall error.
    public var errno: Int32
    /// Extra explanation (what the user can do about it).
    public var hint: String?

    package init(_ operation: String, errno: Int32, hint: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.hint = hint
    }

    /// A logical failure (no syscall involved): nothing suitable was found.
    package static func notFound(_ message: String) -> DRMError { DRMError(message, errno: 0) }

    /// True for the errors a DRM client gets when it is not (or no longer) master:
    /// a VT switch or another compositor took the display.
    package var isPermissionLoss: Bool { errno == EACCES || errno == EPERM }

    /// The operation, the kernel's reason and errno's name, and the hint.
    public var description: String {
        var text = operation
        if errno != 0 {
            text += " failed: \(String(cString: strerror(errno))) (\(DRMError.errnoName(errno)))"
        }
        if let hint { text += "; \(hint)" }
        return text
    }

    /// The symbolic name of the errnos DRM code meets, for messages and logs.
    package static func errnoName(_ code: Int32) -> String {
        switch code {
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case EBUSY: "EBUSY"
        case EINVAL: "EINVAL"
        case ENOENT: "ENOENT"
        case ENOSYS: "ENOSYS"
        case ENOMEM: "ENOMEM"
        case EINTR: "EINTR"
        case EAGAIN: "EAGAIN"
        case ENODEV: "ENODEV"
        case EOPNOTSUPP: "EOPNOTSUPP"
        default: "errno \(code)"
        }
    }
}
