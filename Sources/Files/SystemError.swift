import Foundation

/// The one place that words a file-system error: the reason in words for an error number, and for the
/// errors Foundation throws around them. Callers put the option and the path in front.
package enum SystemError {
    /// What the path was being used for, where the same error number means different things.
    package enum Context: Sendable {
        /// Reading a file or folder.
        case input
        /// Writing a file an option names.
        case output
    }

    /// The reason in words for an error number, with the system's own message in parentheses where the
    /// words are the workbook's (“the disk is full (No space left on device)”).
    package static func words(_ number: Int32, context: Context = .input) -> String {
        let system = message(number)
        switch number {
        case ENOSPC: return "the disk is full (\(system))"
        case EDQUOT: return "the disk quota is used up (\(system))"
        case ELOOP: return "the path has a symbolic link loop (\(system))"
        case ETXTBSY: return "a running program is that file (\(system))"
        case EROFS: return "the file system is read-only (\(system))"
        case EACCES, EPERM: return "permission denied"
        case ENOENT: return context == .output ? "its folder does not exist" : "no such file or folder"
        case ENOTDIR: return "a part of the path is not a folder (\(system))"
        case EISDIR: return "it is a folder (\(system))"
        case ENAMETOOLONG: return "the path is too long (\(system))"
        case EIO: return "the device reported an input/output error (\(system))"
        case ENXIO: return "no such device or reader (\(system))"
        default: return system
        }
    }

    /// The system's message for an error number (“Permission denied”).
    package static func message(_ number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// A short reason for an error thrown by Foundation's file calls: the POSIX message when one is inside,
    /// otherwise the error's own first line. Never the whole `NSError` dump.
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let number = posixNumber(of: nsError) { return words(number) }
        let text = nsError.localizedDescription
        return String(text.prefix { $0 != "\n" })
    }

    /// The POSIX error number inside an error Foundation threw, if there is one.
    private static func posixNumber(of nsError: NSError) -> Int32? {
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return Int32(underlying.code)
        }
        if nsError.domain == NSCocoaErrorDomain { return posixNumber(cocoaCode: nsError.code) }
        return nil
    }

    /// The POSIX error behind Foundation's common file error codes (Linux's Foundation often gives only
    /// these, with a wordy description).
    private static func posixNumber(cocoaCode code: Int) -> Int32? {
        switch code {
        case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: return ENOENT
        case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue:
            return EACCES
        case CocoaError.fileWriteFileExists.rawValue: return EEXIST
        case CocoaError.fileWriteOutOfSpace.rawValue: return ENOSPC
        case CocoaError.fileWriteVolumeReadOnly.rawValue: return EROFS
        default: return nil
        }
    }
}
