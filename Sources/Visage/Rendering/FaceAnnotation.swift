import Foundation
import VisageImage

/// Draws detected faces over their picture: teal boxes and keypoint dots, and orange landmark regions,
/// contours or mesh points, as a PNG or an SVG.
///
/// Both take the upright picture, so coordinates are the faces' own (pixels, origin top left).
package enum FaceAnnotation {
    /// Teal, as `#008080`.
    static let color: (red: UInt8, green: UInt8, blue: UInt8) = (0, 128, 128)
    /// Orange, as `#FF8C00`, for the shapes traced on a face.
    static let shapeColor: (red: UInt8, green: UInt8, blue: UInt8) = (255, 140, 0)

    /// Points traced on a face, in upright pixels: a landmark region, a contour, or the mesh.
    package struct Shape: Sendable {
        package enum Style: Sendable {
            /// A line through the points.
            case open
            /// A line through the points and back to the first.
            case closed
            /// A dot at each point.
            case dots
        }

        package var points: [CGPoint]
        package var style: Style

        package init(points: [CGPoint], style: Style) {
            self.points = points
            self.style = style
        }
    }

    /// Line width in pixels: visible on large pictures, yet thin beside small faces.
    static func lineWidth(width: Int, height: Int, faceWidth: Double) -> Int {
        max(1, min(max(2, max(width, height) / 320), Int(faceWidth / 24)))
    }

    /// The upright picture as RGB with the faces drawn in, and `shapes` (one-pixel lines and dots) over them.
    package static func drawn(_ faces: [Face], shapes: [Shape] = [], on image: Image) -> Image {
        var picture = image.applyingOrientation().converted(to: .rgb8)
        let (width, height, stride) = (picture.width, picture.height, picture.bytesPerRow)
        picture.withUnsafeMutableBytes { pixels in
            func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: (red: UInt8, green: UInt8, blue: UInt8) = color) {
                let (left, right) = (max(x0, 0), min(x1, width))
                let (top, bottom) = (max(y0, 0), min(y1, height))
                guard left < right, top < bottom else { return }
                for y in top..<bottom {
                    for x in left..<right {
                        let at = y * stride + x * 3
                        (pixels[at], pixels[at + 1], pixels[at + 2]) = color
                    }
                }
            }
            for face in faces {
                let frame = face.frame
                guard frame.minX.isFinite, frame.minY.isFinite, frame.maxX.isFinite, frame.maxY.isFinite else { continue }
                let (x0, y0) = (Self.pixel(frame.minX, limit: width), Self.pixel(frame.minY, limit: height))
                let (x1, y1) = (Self.pixel(frame.maxX, limit: width), Self.pixel(frame.maxY, limit: height))
                let line = lineWidth(width: width, height: height, faceWidth: frame.width)
                fill(x0, y0, x1, y0 + line)
                fill(x0, y1 - line, x1, y1)
                fill(x0, y0, x0 + line, y1)
                fill(x1 - line, y0, x1, y1)
                let radius = line * 2
                for point in face.keypoints.values {
                    guard point.x.isFinite, point.y.isFinite else { continue }
                    let (cx, cy) = (Self.pixel(point.x, limit: width), Self.pixel(point.y, limit: height))
                    for dy in -radius...radius {
                        let half = Int(Double(radius * radius - dy * dy).squareRoot())
                        fill(cx - half, cy + dy, cx + half + 1, cy + dy + 1)
                    }
                }
            }
            for shape in shapes {
                let points = shape.points.filter { $0.x.isFinite && $0.y.isFinite }.map {
                    SIMD2(Double(Self.pixel($0.x, limit: width)), Double(Self.pixel($0.y, limit: height)))
                }
                switch shape.style {
                case .dots:
                    for p in points { fill(Int(p.x), Int(p.y), Int(p.x) + 2, Int(p.y) + 2, shapeColor) }
                case .open, .closed:
                    let ends = shape.style == .closed && points.count > 2 ? points + [points[0]] : points
                    for (a, b) in zip(ends, ends.dropFirst()) {
                        // Clamped ends keep every segment within the picture's diagonal.
                        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up))
                        for step in 0...steps {
                            let p = steps == 0 ? a : a + (b - a) * (Double(step) / Double(steps))
                            fill(Int(p.x.rounded()), Int(p.y.rounded()), Int(p.x.rounded()) + 1, Int(p.y.rounded()) + 1, shapeColor)
                        }
                    }
                }
            }
        }
        return picture
    }

    /// An SVG document: the upright picture embedded as PNG, the faces and `shapes` as vector shapes over it.
    package static func svg(_ faces: [Face], shapes: [Shape] = [], on image: Image) throws(ImageError) -> String {
        let picture = image.applyingOrientation()
        let png = try picture.pngData().base64EncodedString()
        let (width, height) = (picture.width, picture.height)
        func number(_ value: Double) -> String { String(format: "%.2f", value) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <image width="\(width)" height="\(height)" href="data:image/png;base64,\(png)"/>
            <g fill="none" stroke="#008080">

            """
        for face in faces {
            let f = face.frame
            let line = lineWidth(width: width, height: height, faceWidth: f.width)
            svg += "<rect x=\"\(number(f.minX))\" y=\"\(number(f.minY))\" width=\"\(number(f.width))\" "
                + "height=\"\(number(f.height))\" stroke-width=\"\(line)\"/>\n"
        }
        svg += "</g>\n<g fill=\"#008080\">\n"
        for face in faces {
            let line = lineWidth(width: width, height: height, faceWidth: face.frame.width)
            for keypoint in FaceKeypoint.allCases {
                guard let point = face.keypoints[keypoint] else { continue }
                svg += "<circle cx=\"\(number(point.x))\" cy=\"\(number(point.y))\" r=\"\(line * 2)\"><title>\(keypoint)</title></circle>\n"
            }
        }
        svg += "</g>\n"
        if !shapes.isEmpty {
            svg += "<g fill=\"none\" stroke=\"#FF8C00\" stroke-width=\"1\">\n"
            for shape in shapes {
                let points = shape.points.filter { $0.x.isFinite && $0.y.isFinite }
                switch shape.style {
                case .dots:
                    for p in points { svg += "<circle cx=\"\(number(p.x))\" cy=\"\(number(p.y))\" r=\"1\" fill=\"#FF8C00\" stroke=\"none\"/>\n" }
                case .open, .closed:
                    let list = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
                    svg += "<\(shape.style == .closed ? "polygon" : "polyline") points=\"\(list)\"/>\n"
                }
            }
            svg += "</g>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// A coordinate as a pixel index, kept within a margin of the picture so huge values cannot
    /// make the loops long.
    static func pixel(_ value: Double, limit: Int) -> Int {
        Int(min(max(value.rounded(), -1), Double(limit + 1)))
    }
}
