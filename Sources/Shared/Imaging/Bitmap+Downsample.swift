/// Decoding at display size: the picture scaled down to the pixels its view shows, as Nuke's and
/// Kingfisher's downsampling processors and ImageIO thumbnails do, so the app keeps no pixel the screen
/// cannot show.
extension Bitmap {
    /// The size of this picture fitted inside `width` × `height` pixels, keeping its shape; never larger
    /// than the picture itself (a small picture is not enlarged).
    package func displaySize(fitting width: Int, _ height: Int) -> (width: Int, height: Int) {
        let fitted = Thumbnail.fittingSize(width: self.width, height: self.height, box: (width, height))
        guard fitted.width < self.width, fitted.height < self.height else { return (self.width, self.height) }
        return fitted
    }

    /// This picture scaled down to fit `width` × `height` pixels with a box filter (each new pixel the
    /// rounded mean of the pixels it covers, in integer math); itself when it already fits.
    package func downsampled(toFit width: Int, _ height: Int) -> Bitmap {
        let size = displaySize(fitting: width, height)
        guard size != (self.width, self.height) else { return self }
        return Thumbnail.scaled(self, width: size.width, height: size.height)
    }
}
