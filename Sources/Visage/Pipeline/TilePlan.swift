/// The windows accurate mode runs the full-range detector on.
///
/// The full-range model finds faces from about 1/16 of its window (12 of its 192 input pixels, measured
/// on the sample faces) up to most of it. One letterbox over the whole picture covers the large faces;
/// for smaller ones the picture is cut into square tiles, level by level, each level's tiles a quarter
/// the side of the previous, until a face of `minFaceSize` × the picture's width is at least 1/16 of a
/// tile. A level then covers faces from 1/16 to 1/4 of its tiles and the coarser level the rest; tiles
/// overlap by a quarter of their side so every face up to that size lies wholly inside one, and
/// weighted NMS merges the repeats. `minFaceSize` thus bounds the work: 0.1 (ML Kit's default) needs no
/// tiles at all, and 24-pixel faces in a 4000×3000 photo need about 170 windows.
package struct TilePlan: Sendable {
    /// A face this many times smaller than the window is still found by the full-range model.
    static let smallestFaceRatio = 16.0
    /// The smallest face size (in pixels) tiling aims for; below it faces are not worth looking for.
    static let smallestFacePixels = 20.0
    /// At most this many windows, whatever the picture and `minFaceSize`.
    static let maximumWindows = 400

    package let windows: [DetectionWindow]

    package init(imageWidth: Int, imageHeight: Int, minFaceSize: Double) {
        let letterbox = DetectionWindow.letterbox(width: imageWidth, height: imageHeight)
        var windows = [letterbox]
        let smallestFace = max(minFaceSize * Double(imageWidth), Self.smallestFacePixels)
        let finestSide = smallestFace * Self.smallestFaceRatio
        var side = letterbox.side
        while side > finestSide {
            side = max(side / 4, finestSide)
            let level = Self.tiles(side: side, imageWidth: imageWidth, imageHeight: imageHeight)
            guard windows.count + level.count <= Self.maximumWindows else { break }
            windows += level
        }
        self.windows = windows
    }

    /// Square tiles of `side` pixels covering the picture, a quarter of a side overlapping, the last
    /// row and column flush with the picture's edge.
    static func tiles(side: Double, imageWidth: Int, imageHeight: Int) -> [DetectionWindow] {
        func starts(_ length: Double) -> [Double] {
            guard length > side else { return [(length - side) / 2] }
            let step = side * 3 / 4
            let count = Int(((length - side) / step).rounded(.up)) + 1
            return (0..<count).map { min(Double($0) * step, length - side) }
        }
        return starts(Double(imageHeight)).flatMap { y in
            starts(Double(imageWidth)).map { x in
                DetectionWindow(originX: x, originY: y, side: side, imageWidth: imageWidth, imageHeight: imageHeight)
            }
        }
    }
}
