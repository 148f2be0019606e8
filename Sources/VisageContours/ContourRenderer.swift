import Foundation
import VisageGeometry
import VisageImage

/// Draws contours as SVG or PNG, on a blank white canvas or over the image they came from.
///
/// Normalized points (origin lower-left) are placed on a `width × height` canvas with the origin
/// at the top left, as image files have it. Outlines are black on blank canvases and red over
/// images; the pen is one pixel wide per 1024 pixels of the canvas's longer side (at least one).
///
/// ```swift
/// let svg = try ContourRenderer.svg(observation.contours, width: image.width, height: image.height)
/// let png = try ContourRenderer.png(observation.contours, over: image)
/// ```
public enum ContourRenderer {
    /// An SVG document; over `background` when given, which is embedded as a PNG data URL.
    /// - Throws: ``ContoursError/image(_:)`` when the background cannot be encoded.
    public static func svg(_ contours: [Contour], width: Int, height: Int, background: Image? = nil) throws(ContoursError)
        -> String
    {
        let stroke = background == nil ? "#000000" : "#ff2020"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">

            """
        if let background {
            let png: Data
            do { png = try background.pngData() } catch { throw .image(error) }
            svg += "<image width=\"\(width)\" height=\"\(height)\" preserveAspectRatio=\"none\" "
                + "href=\"data:image/png;base64,\(png.base64EncodedString())\"/>\n"
        } else {
            svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        }
        svg += "<path fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(pen(width, height))\" "
            + "stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\""
        let w = Double(width), h = Double(height)
        func format(_ value: Double) -> String { String(format: "%.2f", value) }
        for contour in contours {
            for (index, point) in contour.points.enumerated() {
                svg += (index == 0 ? "M" : "L") + format(point.x * w) + " " + format((1 - point.y) * h)
            }
            svg += contour.pointCount == 1 ? "h0Z" : "Z"
        }
        svg += "\"/>\n</svg>\n"
        return svg
    }

    /// PNG bytes of the contours on a blank `width × height` canvas.
    /// - Throws: ``ContoursError/invalidParameter(name:value:rule:)`` for a non-positive size,
    ///   ``ContoursError/image(_:)`` when encoding fails.
    public static func png(_ contours: [Contour], width: Int, height: Int) throws(ContoursError) -> Data {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false,
              width * height <= 100_000_000
        else {
            throw .invalidParameter(name: "canvas size", value: "\(width)×\(height)", rule: "must be positive and at most 100 megapixels")
        }
        var canvas = RGBACanvas(width: width, height: height, fill: (255, 255, 255, 255))
        draw(contours, on: &canvas, color: (0, 0, 0))
        return try encode(canvas)
    }

    /// PNG bytes of the contours drawn over `image` (upright, at its full size).
    public static func png(_ contours: [Contour], over image: Image) throws(ContoursError) -> Data {
        let upright = image.applyingOrientation().converted(to: .rgba8)
        var canvas = RGBACanvas(width: upright.width, height: upright.height, rgba: upright.packedPixels)
        draw(contours, on: &canvas, color: (255, 32, 32))
        return try encode(canvas)
    }

    private static func pen(_ width: Int, _ height: Int) -> Int { max(1, max(width, height) / 1024) }

    private static func draw(_ contours: [Contour], on canvas: inout RGBACanvas, color: (r: UInt8, g: UInt8, b: UInt8)) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let pen = pen(canvas.width, canvas.height)
        func pixel(_ point: NormalizedPoint) -> (x: Int, y: Int) {
            (min(max(Int((point.x * w).rounded(.down)), 0), canvas.width - 1),
             min(max(Int(((1 - point.y) * h).rounded(.down)), 0), canvas.height - 1))
        }
        for contour in contours {
            guard var previous = contour.points.last.map(pixel) else { continue }
            for point in contour.points {
                let current = pixel(point)
                canvas.line(from: previous, to: current, pen: pen, color: color)
                previous = current
            }
        }
    }

    private static func encode(_ canvas: RGBACanvas) throws(ContoursError) -> Data {
        do {
            return try Image(width: canvas.width, height: canvas.height, pixelFormat: .rgba8, pixels: canvas.pixels).pngData()
        } catch {
            throw .image(error)
        }
    }
}
