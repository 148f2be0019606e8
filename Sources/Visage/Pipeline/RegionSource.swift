import Foundation
import VisageImage

/// Where the mesh stage's pixels come from: a picture already decoded whole, or an encoded JPEG that is
/// decoded one region at a time, at full resolution, only where a face's warp reaches.
///
/// Any number of regions can be asked for, in any order (a refinement pass may look at another region
/// than the first): each is decoded on demand, or served by a window already decoded when that one
/// covers it. Regions are upright pixels (``MeshRegion``); windows are stored pixels (``ImageWindow``).
package struct RegionSource: Sendable {
    private enum Pixels: Sendable {
        case decoded(Image)
        case encoded(Data)
    }

    private let pixels: Pixels
    /// The stored picture's size and orientation.
    package let storedWidth: Int
    package let storedHeight: Int
    package let orientation: ImageOrientation

    /// Pixels beyond a warp's bilinear taps that a window also holds, on each side: one 4:2:0 iMCU, so the
    /// chroma libjpeg upsamples at a window's cut edge (which has no neighbour there) never reaches a tap.
    package static let edgeMargin = 16
    /// A further margin, as a fraction of the region's side, so a nearby region asked for next (the quality
    /// crop, a refined region) is usually served by the same window.
    package static let reuseMargin = 0.125

    /// `image`'s stored pixels, read as having `orientation` (the image's own when nil).
    package init(_ image: Image, orientation: ImageOrientation? = nil) {
        let oriented = orientation.map { image.withOrientation($0) } ?? image
        pixels = .decoded(oriented)
        (storedWidth, storedHeight, self.orientation) = (oriented.width, oriented.height, oriented.orientation)
    }

    /// An encoded picture whose header says `info`; JPEGs decode per region, other formats whole on first use.
    package init(encoded data: Data, info: ImageFileInfo) {
        pixels = .encoded(data)
        (storedWidth, storedHeight, orientation) = (info.width, info.height, info.orientation)
    }

    /// The upright picture's size, which regions are made for.
    package var uprightSize: (width: Int, height: Int) {
        orientation.uprightSize(rawWidth: storedWidth, rawHeight: storedHeight)
    }

    /// A window holding every stored pixel that a warp of `region` (at any tensor size) samples, with the
    /// margins above; `reusing` is returned when it already covers them.
    ///
    /// - Throws: ``FaceDetectionError/image(_:)`` when the region's part of the picture cannot be decoded.
    package func window(covering region: MeshRegion, reusing previous: ImageWindow? = nil) throws(FaceDetectionError) -> ImageWindow {
        try window(coveringAll: [region], reusing: previous)
    }

    /// One window for all of `regions` (the bounding box of their windows): a JPEG is then read once, not
    /// once per face, since libjpeg must decode the entropy-coded data above every window it cuts.
    package func window(coveringAll regions: [MeshRegion], reusing previous: ImageWindow? = nil) throws(FaceDetectionError) -> ImageWindow {
        switch pixels {
        case .decoded(let image):
            return previous ?? ImageWindow(image)
        case .encoded(let data):
            let rects = regions.map { (rect: storedRect(of: $0), margin: Int((Self.reuseMargin * $0.side).rounded(.up))) }
            if let previous, rects.allSatisfy({ previous.covers(columns: $0.rect.columns, rows: $0.rect.rows) }) { return previous }
            // No region at all gives the whole picture.
            let left = rects.map { $0.rect.columns.lowerBound - $0.margin }.min() ?? 0
            let right = rects.map { $0.rect.columns.upperBound + $0.margin }.max() ?? storedWidth
            let top = rects.map { $0.rect.rows.lowerBound - $0.margin }.min() ?? 0
            let bottom = rects.map { $0.rect.rows.upperBound + $0.margin }.max() ?? storedHeight
            do {
                return try ImageWindow(data: data, columns: left..<right, rows: top..<bottom).withOrientation(orientation)
            } catch {
                throw .image(error)
            }
        }
    }

    /// The stored columns and rows the bilinear taps of `region`'s warp reach, widened by ``edgeMargin``:
    /// the bounding box of the region's turned square (its corners mapped as the warp maps pixels).
    package func storedRect(of region: MeshRegion) -> (columns: Range<Int>, rows: Range<Int>) {
        let size = MeshRegion.tensorSize
        let map = region.warpTransform(tensorSize: size, rawWidth: storedWidth, rawHeight: storedHeight, orientation: orientation)
        let corners = [(0.0, 0.0), (Double(size), 0), (0, Double(size)), (Double(size), Double(size))].map { u, v in
            SIMD2(map.a * u + map.b * v + map.tx, map.c * u + map.d * v + map.ty)
        }
        let low = corners.reduce(SIMD2(repeating: Double.infinity)) { pointwiseMin($0, $1) }
        let high = corners.reduce(SIMD2(repeating: -Double.infinity)) { pointwiseMax($0, $1) }
        func range(_ low: Double, _ high: Double) -> Range<Int> {
            // Clamped far outside any picture first, so absurd regions stay integers.
            let lower = Int(max(-1e9, low.rounded(.down))) - Self.edgeMargin
            let upper = Int(min(1e9, high.rounded(.down))) + 2 + Self.edgeMargin
            return lower..<max(lower, upper)
        }
        return (range(low.x, high.x), range(low.y, high.y))
    }
}
