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
        // Points on a grid of 1/4000 of the longer side or finer (0.01 px below 400 px, 0.1 px below
        // 4000, whole pixels from 4000 on): finer than any screen shows. Each point after the first is a relative move between
        // grid points (`l dx dy`, exact, so nothing drifts), which halves the text of long outlines.
        let decimals = max(0, Int((log10(4000 / Double(max(width, height, 1)))).rounded(.up)))
        let grid = pow(10, Double(decimals))
        let w = Double(width) * grid, h = Double(height) * grid
        func format(_ steps: Int) -> String {
            guard decimals > 0 else { return String(steps) }
            let sign = steps < 0 ? "-" : "", magnitude = steps.magnitude
            let whole = magnitude / UInt(grid), fraction = magnitude % UInt(grid)
            guard fraction > 0 else { return sign + String(whole) }
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            return sign + String(whole) + "." + digits
        }
        func pair(_ x: Int, _ y: Int) -> String {
            let second = format(y)
            return format(x) + (second.hasPrefix("-") ? "" : " ") + second
        }
        for contour in contours {
            var last = (x: 0, y: 0)
            for (index, point) in contour.points.enumerated() {
                let x = Int((point.x * w).rounded()), y = Int(((1 - point.y) * h).rounded())
                svg += index == 0 ? "M" + pair(x, y) : (index == 1 ? "l" : (x - last.x < 0 ? "" : " ")) + pair(x - last.x, y - last.y)
                last = (x, y)
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
