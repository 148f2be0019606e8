import VisageGeometry

extension Image {
    /// The upright picture: pixels rotated and mirrored per ``orientation``, which becomes `.up`.
    ///
    /// The pixel mapping is derived from `ImageOrientation.rawUnitPoint(fromUpright:_:)`, the one
    /// definition of what each orientation means, evaluated at pixel centres.
    public func applyingOrientation() -> Image {
        if orientation == .up { return self }
        let (outWidth, outHeight) = orientation.uprightSize(rawWidth: width, rawHeight: height)
        // Raw pixel of upright pixel (i, j) = origin + i·stepI + j·stepJ; the mapping is affine.
        let rawPixel = { (i: Int, j: Int) -> (x: Int, y: Int) in
            let unit = orientation.rawUnitPoint(fromUpright: (Double(i) + 0.5) / Double(outWidth), (Double(j) + 0.5) / Double(outHeight))
            return (Int((unit.x * Double(width) - 0.5).rounded()), Int((unit.y * Double(height) - 0.5).rounded()))
        }
        let origin = rawPixel(0, 0)
        let alongI = rawPixel(1, 0)
        let alongJ = rawPixel(0, 1)
        let step = pixelFormat.bytesPerPixel
        let stepI = (alongI.x - origin.x) * step + (alongI.y - origin.y) * bytesPerRow
        let stepJ = (alongJ.x - origin.x) * step + (alongJ.y - origin.y) * bytesPerRow
        let start = origin.x * step + origin.y * bytesPerRow
        return try! Image(uninitializedWidth: outWidth, height: outHeight, pixelFormat: pixelFormat) { out in
            withExtendedLifetime(storage) {
                let input = UnsafeRawPointer(storage.base)
                var output = out.baseAddress!
                for j in 0..<outHeight {
                    var offset = start + j * stepJ
                    for _ in 0..<outWidth {
                        output.copyMemory(from: input + offset, byteCount: step)
                        output += step
                        offset += stepI
                    }
                }
            }
        }
    }

    /// The same stored pixels (shared, not copied) declared to have `orientation`: for callers that know
    /// it from elsewhere, such as a camera's rotation.
    public func withOrientation(_ orientation: ImageOrientation) -> Image {
        var image = self
        image.orientation = orientation
        return image
    }
}
