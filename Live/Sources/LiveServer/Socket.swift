#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket calls the server makes, over the platform's C library: the one file that names it.
enum Socket {
    /// Why a socket call failed: the call and its `errno` in words.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// A TCP socket listening on 127.0.0.1 at a port the kernel picks, and that port.
    static func listenOnLoopback(backlog: Int32 = 64) throws(Failure) -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: "bind", code: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: "listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: "getsockname", code: code)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// The next connection on a listening socket, or nil when `accept` failed (the socket is shut down, or
    /// the process is out of descriptors or memory).
    static func accept(on descriptor: Int32) -> Int32? {
        while true {
            #if canImport(Glibc)
                let connection = Glibc.accept(descriptor, nil, nil)
            #else
                let connection = Darwin.accept(descriptor, nil, nil)
            #endif
            if connection >= 0 {
                #if canImport(Darwin)
                    var yes: Int32 = 1
                    setsockopt(
                        connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return connection
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Makes every `receive` on the socket give up after `seconds`.
    static func setReceiveTimeout(_ descriptor: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Up to `limit` bytes that have arrived; empty when the peer closed, timed out or failed.
    static func receive(_ descriptor: Int32, limit: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return []
        }
    }

    /// Sends all of `bytes`; false when the peer has gone (a closed or reset connection).
    static func send(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let count = bytes.withUnsafeBytes {
                systemSend(descriptor, $0.baseAddress! + sent, $0.count - sent, flags)
            }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Whether the peer has closed its end: the socket reads as ready and a peek finds no byte.
    static func peerHasClosed(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        if entry.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Ends a connection both ways without closing its descriptor: the thread answering on it sees it
    /// end, and closes it.
    static func shutDownConnection(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// How many descriptors the process may have open (its soft `RLIMIT_NOFILE`).
    static var descriptorLimit: Int {
        var limit = rlimit()
        #if canImport(Glibc)
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        #else
            guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return 1024 }
        #endif
        return Int(clamping: limit.rlim_cur)
    }

    /// Stops a listening socket's `accept` and closes it.
    static func shutDown(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Closes a connection.
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}

/// `send(2)` under a name that does not shadow `Socket.send`.
private func systemSend(
    _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32
) -> Int {
    #if canImport(Glibc)
        Glibc.send(descriptor, bytes, count, flags)
    #else
        Darwin.send(descriptor, bytes, count, flags)
    #endif
}
