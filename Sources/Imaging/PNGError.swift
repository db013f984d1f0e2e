/// Why a PNG file could not be decoded.
///
/// Every malformed or hostile input the decoder meets ends in one of these cases; the
/// decoder never traps on bad input.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the eight-byte PNG signature.
    case badSignature
    /// A chunk's stored CRC-32 does not match its type and data.
    case badCRC(chunk: String)
    /// A chunk claims more data than the file holds.
    case truncatedChunk(chunk: String)
    /// The file ends before its `IEND` chunk, in the middle of a chunk header or between chunks.
    case unexpectedEnd
    /// A chunk claims a length above the PNG limit of 2^31 − 1 bytes.
    case badChunkLength(chunk: String, length: UInt32)
    /// The file holds no chunks at all, so no `IHDR`.
    case missingIHDR
    /// The first chunk is not `IHDR`.
    case ihdrNotFirst(found: String)
    /// A chunk that may appear only once appears again.
    case duplicateChunk(String)
    /// A chunk appears where the PNG specification forbids it (for example `PLTE` after `IDAT`).
    case chunkOutOfOrder(String)
    /// The image has no `IDAT` chunk.
    case missingIDAT
    /// A palette image (colour type 3) has no `PLTE` chunk before its image data.
    case missingPalette
    /// The `IDAT` chunks are not one consecutive run.
    case idatNotConsecutive
    /// A chunk marked critical (upper-case first letter) that this decoder does not know.
    case unknownCriticalChunk(String)
    /// The `IHDR` chunk is not 13 bytes long.
    case badHeaderLength(Int)
    /// The width or height is zero or above 2^31 − 1.
    case invalidDimensions(width: UInt32, height: UInt32)
    /// The colour type is not 0, 2, 3, 4 or 6.
    case unsupportedColorType(UInt8)
    /// The bit depth is not allowed for the colour type.
    case unsupportedBitDepth(bitDepth: UInt8, colorType: UInt8)
    /// The compression method is not 0 (deflate).
    case unsupportedCompressionMethod(UInt8)
    /// The filter method is not 0 (adaptive filtering).
    case unsupportedFilterMethod(UInt8)
    /// The interlace method is neither 0 (none) nor 1 (Adam7).
    case unsupportedInterlaceMethod(UInt8)
    /// The image has more pixels than the caller allows.
    case imageTooLarge(width: Int, height: Int, maximumPixels: Int)
    /// The `PLTE` chunk's length is not a multiple of three between 3 and 768.
    case badPaletteLength(Int)
    /// The `tRNS` chunk's length does not fit the colour type (or the palette).
    case badTransparencyLength(Int)
    /// The compressed image data is not a valid zlib stream.
    case badZlibStream(ZlibProblem)
    /// A scanline starts with a filter type other than 0–4.
    case badRowFilter(UInt8)
    /// The image data inflates to fewer bytes than the header implies.
    case imageDataTooShort(expected: Int, actual: Int)
    /// The image data inflates to more bytes than the header implies.
    case imageDataTooLong(expected: Int)
    /// A palette image uses an index the palette does not have.
    case paletteIndexOutOfRange(index: Int, paletteSize: Int)

    /// What is wrong with a zlib (RFC 1950) or DEFLATE (RFC 1951) stream.
    public enum ZlibProblem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The two-byte zlib header is invalid, asks for a preset dictionary or a method other than deflate.
        case badHeader
        /// A block has the reserved block type 3.
        case badBlockType
        /// A Huffman code is over-subscribed, incomplete, lacks an end-of-block code, or a code is not in it.
        case badHuffmanTable
        /// A back-reference reaches before the start of the output.
        case distanceTooFarBack
        /// A stored block's length does not match its one's complement.
        case badStoredLength
        /// The Adler-32 checksum at the end does not match the inflated data.
        case adlerMismatch
        /// The stream ends before its final block and checksum.
        case endedEarly
        /// The stream inflates to more than the allowed number of bytes.
        case tooMuchData(limit: Int)

        /// One English sentence saying what is wrong.
        public var description: String { "The zlib stream is invalid: \(reason)." }

        /// What is wrong, as a lower-case clause about the stream.
        var reason: String {
            switch self {
            case .badHeader: "its header is invalid"
            case .badBlockType: "a block uses the reserved block type 3"
            case .badHuffmanTable: "a block has an invalid Huffman code"
            case .distanceTooFarBack: "a back-reference reaches before the start of the data"
            case .badStoredLength: "a stored block's length does not match its complement"
            case .adlerMismatch: "its Adler-32 checksum does not match the inflated data"
            case .endedEarly: "it ends before its last block and checksum"
            case .tooMuchData(let limit): "it inflates to more than \(limit) bytes"
            }
        }
    }

    /// One English sentence saying what is wrong.
    public var description: String {
        switch self {
        case .badSignature:
            "The data does not start with the PNG signature."
        case .badCRC(let chunk):
            "The CRC of the \(chunk) chunk does not match its contents."
        case .truncatedChunk(let chunk):
            "The \(chunk) chunk is cut off before its declared end."
        case .unexpectedEnd:
            "The PNG data ends before its IEND chunk."
        case .badChunkLength(let chunk, let length):
            "The \(chunk) chunk declares an impossible length of \(length) bytes."
        case .missingIHDR:
            "The PNG has no IHDR header chunk."
        case .ihdrNotFirst(let found):
            "The first chunk is \(found), not IHDR."
        case .duplicateChunk(let chunk):
            "The \(chunk) chunk appears more than once."
        case .chunkOutOfOrder(let chunk):
            "The \(chunk) chunk appears where the PNG specification does not allow it."
        case .missingIDAT:
            "The PNG has no IDAT image data chunk."
        case .missingPalette:
            "The palette image has no PLTE chunk before its image data."
        case .idatNotConsecutive:
            "The IDAT chunks are interrupted by another chunk."
        case .unknownCriticalChunk(let chunk):
            "The PNG holds an unknown critical chunk \(chunk)."
        case .badHeaderLength(let length):
            "The IHDR chunk is \(length) bytes long instead of 13."
        case .invalidDimensions(let width, let height):
            "The image size \(width)×\(height) is not allowed."
        case .unsupportedColorType(let colorType):
            "The colour type \(colorType) is not a PNG colour type."
        case .unsupportedBitDepth(let bitDepth, let colorType):
            "The bit depth \(bitDepth) is not allowed for colour type \(colorType)."
        case .unsupportedCompressionMethod(let method):
            "The compression method \(method) is not supported."
        case .unsupportedFilterMethod(let method):
            "The filter method \(method) is not supported."
        case .unsupportedInterlaceMethod(let method):
            "The interlace method \(method) is not supported."
        case .imageTooLarge(let width, let height, let maximumPixels):
            "The image size \(width)×\(height) exceeds the limit of \(maximumPixels) pixels."
        case .badPaletteLength(let length):
            "The PLTE chunk's length of \(length) bytes is not a whole palette of 1 to 256 colours."
        case .badTransparencyLength(let length):
            "The tRNS chunk's length of \(length) bytes does not fit the image's colour type."
        case .badZlibStream(let problem):
            "The image data is not a valid zlib stream: \(problem.reason)."
        case .badRowFilter(let filter):
            "A scanline uses the unknown filter type \(filter)."
        case .imageDataTooShort(let expected, let actual):
            "The image data inflates to \(actual) bytes, fewer than the \(expected) the header implies."
        case .imageDataTooLong(let expected):
            "The image data inflates to more than the \(expected) bytes the header implies."
        case .paletteIndexOutOfRange(let index, let paletteSize):
            "A pixel uses palette index \(index) but the palette has only \(paletteSize) colours."
        }
    }
}
