/// Undoes the five PNG row filters (None, Sub, Up, Average, Paeth) in place.
enum PNGRowFilter {
    /// Reconstructs one filtered row of `rowBytes` bytes in place.
    ///
    /// `filterType` is the row's filter-type byte; `prior` is the reconstructed row above (a row of at
    /// least `rowBytes` zeros for the first row); `stride` is the distance to the byte a byte is filtered
    /// against (bytes per pixel, at least 1). Returns the error for an unknown filter type, or nil.
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, filterType: UInt8, prior: UnsafePointer<UInt8>, rowBytes: Int,
        stride: Int
    ) -> PNGError? {
        switch filterType {
        case 0:
            break
        case 1:
            var index = stride
            while index < rowBytes {
                row[index] &+= row[index &- stride]
                index &+= 1
            }
        case 2:
            var index = 0
            while index < rowBytes {
                row[index] &+= prior[index]
                index &+= 1
            }
        case 3:
            var index = 0
            while index < stride && index < rowBytes {
                row[index] &+= prior[index] &>> 1
                index &+= 1
            }
            while index < rowBytes {
                let sum = UInt16(row[index &- stride]) &+ UInt16(prior[index])
                row[index] &+= UInt8(truncatingIfNeeded: sum &>> 1)
                index &+= 1
            }
        case 4:
            paeth(row, prior: prior, rowBytes: rowBytes, stride: stride)
        default:
            return .badRowFilter(filterType)
        }
        return nil
    }

    /// The Paeth filter: each byte is predicted by whichever of left (a), above (b) and above-left (c) is
    /// nearest to a + b − c, ties going to a, then b.
    ///
    /// Written without branches on the data: the distances are |b − c|, |a − c| and |a + b − 2c| (the
    /// estimate minus a, b and c), and the choice is two selects, which the compiler turns into
    /// conditional moves.
    @inline(__always)
    static func paeth(
        _ row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, rowBytes: Int, stride: Int
    ) {
        // With nothing to the left, the predictor is the byte above.
        var index = 0
        while index < stride && index < rowBytes {
            row[index] &+= prior[index]
            index &+= 1
        }
        while index < rowBytes {
            let left = Int32(row[index &- stride])
            let above = Int32(prior[index])
            let aboveLeft = Int32(prior[index &- stride])
            let towardAbove = above &- aboveLeft
            let towardLeft = left &- aboveLeft
            // Magnitudes written out, not with the generic `abs`, which debug builds call through
            // witness tables for every byte.
            let both = towardAbove &+ towardLeft
            let distanceLeft = towardAbove < 0 ? 0 &- towardAbove : towardAbove
            let distanceAbove = towardLeft < 0 ? 0 &- towardLeft : towardLeft
            let distanceAboveLeft = both < 0 ? 0 &- both : both
            let nearerOfAboveTwo = distanceAbove <= distanceAboveLeft ? above : aboveLeft
            let predictor =
                distanceLeft <= distanceAbove && distanceLeft <= distanceAboveLeft ? left : nearerOfAboveTwo
            row[index] &+= UInt8(truncatingIfNeeded: predictor)
            index &+= 1
        }
    }
}
