extension Deflater {
    /// Collects the bits of a DEFLATE stream, least significant bit first, into bytes.
    ///
    /// Holds its own growable buffer; `finish()` hands the bytes over and frees it, so every
    /// writer must end with exactly one call to `finish()`, after which it is not used again.
    struct BitWriter {
        /// The bytes written so far; `capacity` of them are allocated.
        private var bytes: UnsafeMutablePointer<UInt8>
        /// How many bytes `bytes` can hold.
        private var capacity: Int
        /// How many whole bytes have been written.
        private(set) var byteCount = 0
        /// Bits not yet stored as bytes, the oldest in the lowest bits.
        private var pendingBits: UInt64 = 0
        /// How many of `pendingBits` are in use (always below 32 between calls).
        private var pendingCount = 0

        /// Starts an empty writer with room for `capacity` bytes (it grows when needed).
        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        }

        /// The number of bits written so far, including those not yet stored as bytes.
        var bitCount: Int { byteCount * 8 + pendingCount }

        /// Makes sure at least `extra` more bytes fit without growing in the middle of a block.
        mutating func reserve(_ extra: Int) {
            let needed = byteCount + extra + 16
            guard needed > capacity else { return }
            let newCapacity = max(needed, capacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            capacity = newCapacity
        }

        /// Appends the low `count` bits of `value` (at most 32 bits); `reserve` must have made room.
        mutating func write(_ value: UInt32, count: Int) {
            pendingBits |= UInt64(value) &<< UInt64(pendingCount)
            pendingCount += count
            if pendingCount >= 32 {
                let out = bytes + byteCount
                out[0] = UInt8(truncatingIfNeeded: pendingBits)
                out[1] = UInt8(truncatingIfNeeded: pendingBits >> 8)
                out[2] = UInt8(truncatingIfNeeded: pendingBits >> 16)
                out[3] = UInt8(truncatingIfNeeded: pendingBits >> 24)
                byteCount += 4
                pendingBits >>= 32
                pendingCount -= 32
            }
        }

        /// Pads with zero bits to the next byte boundary and stores every pending bit.
        mutating func alignToByte() {
            reserve(8)
            while pendingCount > 0 {
                bytes[byteCount] = UInt8(truncatingIfNeeded: pendingBits)
                byteCount += 1
                pendingBits >>= 8
                pendingCount = max(0, pendingCount - 8)
            }
            pendingBits = 0
        }

        /// Appends one byte; the writer must be at a byte boundary.
        mutating func writeByteAligned(_ byte: UInt8) {
            precondition(pendingCount == 0, "byte write off a byte boundary")
            reserve(1)
            bytes[byteCount] = byte
            byteCount += 1
        }

        /// Appends bytes verbatim; the writer must be at a byte boundary.
        mutating func writeBytesAligned(_ source: UnsafePointer<UInt8>, count: Int) {
            precondition(pendingCount == 0, "byte write off a byte boundary")
            reserve(count)
            (bytes + byteCount).update(from: source, count: count)
            byteCount += count
        }

        /// A second writer holding the same bits, with a buffer of its own.
        func copy() -> BitWriter {
            var twin = BitWriter(capacity: capacity)
            twin.bytes.update(from: bytes, count: byteCount)
            twin.byteCount = byteCount
            twin.pendingBits = pendingBits
            twin.pendingCount = pendingCount
            return twin
        }

        /// Frees the buffer of a writer that is given up; it is not used again.
        consuming func release() {
            bytes.deallocate()
        }

        /// Stores the last bits (padded to a byte), frees the buffer and returns every byte written.
        consuming func finish() -> [UInt8] {
            alignToByte()
            let result = [UInt8](UnsafeBufferPointer(start: bytes, count: byteCount))
            bytes.deallocate()
            return result
        }
    }
}
