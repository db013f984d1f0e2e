/// Undoes the five PNG row filters (None, Sub, Up, Average, Paeth) in place.
enum PNGRowFilter {
    /// Reconstructs `rows` filtered rows that follow each other in `data`.
    ///
    /// Each row is one filter-type byte and `rowBytes` data bytes; `stride` is the distance to
    /// the byte a byte is filtered against (bytes per pixel, at least 1). `zeroRow` holds at
    /// least `rowBytes` zeros and stands in for the row above the first. Returns the error for
    /// an unknown filter type, or nil.
    static func unfilter(
        _ data: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int, stride: Int,
        zeroRow: UnsafePointer<UInt8>
    ) -> PNGError? {
        var prior = zeroRow
        var rowIndex = 0
        while rowIndex < rows {
            let filterByte = data + rowIndex * (rowBytes + 1)
            let row = filterByte + 1
            let filterType = filterByte.pointee
            switch filterType {
            case 0:
                break
            case 1:
                var index = stride
                while index < rowBytes {
                    row[index] &+= row[index - stride]
                    index += 1
                }
            case 2:
                var index = 0
                while index < rowBytes {
                    row[index] &+= prior[index]
                    index += 1
                }
            case 3:
                var index = 0
                while index < stride && index < rowBytes {
                    row[index] &+= prior[index] &>> 1
                    index += 1
                }
                while index < rowBytes {
                    let sum = UInt16(row[index - stride]) &+ UInt16(prior[index])
                    row[index] &+= UInt8(truncatingIfNeeded: sum &>> 1)
                    index += 1
                }
            case 4:
                // With nothing to the left, the Paeth predictor is the byte above.
                var index = 0
                while index < stride && index < rowBytes {
                    row[index] &+= prior[index]
                    index += 1
                }
                while index < rowBytes {
                    let left = Int(row[index - stride])
                    let above = Int(prior[index])
                    let aboveLeft = Int(prior[index - stride])
                    let estimate = left &+ above &- aboveLeft
                    var distanceLeft = estimate &- left
                    if distanceLeft < 0 { distanceLeft = 0 &- distanceLeft }
                    var distanceAbove = estimate &- above
                    if distanceAbove < 0 { distanceAbove = 0 &- distanceAbove }
                    var distanceAboveLeft = estimate &- aboveLeft
                    if distanceAboveLeft < 0 { distanceAboveLeft = 0 &- distanceAboveLeft }
                    let predictor: Int
                    if distanceLeft <= distanceAbove && distanceLeft <= distanceAboveLeft {
                        predictor = left
                    } else if distanceAbove <= distanceAboveLeft {
                        predictor = above
                    } else {
                        predictor = aboveLeft
                    }
                    row[index] &+= UInt8(truncatingIfNeeded: predictor)
                    index += 1
                }
            default:
                return .badRowFilter(filterType)
            }
            prior = UnsafePointer(row)
            rowIndex += 1
        }
        return nil
    }
}
