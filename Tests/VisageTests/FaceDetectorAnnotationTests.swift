import Foundation
import Testing
import Visage

/// The shapes `visage detect --annotate` draws over faces with the landmark flags.
@Suite struct FaceDetectorAnnotationTests {
    static func grey() throws -> Image {
        try Image(width: 100, height: 80, pixelFormat: .gray8, pixels: [UInt8](repeating: 200, count: 8000))
    }

    static let orange: [UInt8] = [255, 140, 0]

    @Test func linesLoopsAndDotsAreDrawnInOrange() throws {
        let shapes = [
            FaceAnnotation.Shape(points: [CGPoint(x: 10, y: 10), CGPoint(x: 30, y: 10)], style: .open),
            FaceAnnotation.Shape(points: [CGPoint(x: 50, y: 20), CGPoint(x: 70, y: 20), CGPoint(x: 70, y: 40)], style: .closed),
            FaceAnnotation.Shape(points: [CGPoint(x: 5, y: 70)], style: .dots),
        ]
        let drawn = FaceAnnotation.drawn([], shapes: shapes, on: try Self.grey())
        #expect(drawn.pixel(x: 20, y: 10) == Self.orange, "on the open line")
        #expect(drawn.pixel(x: 20, y: 12) == [200, 200, 200], "beside it")
        #expect(drawn.pixel(x: 70, y: 30) == Self.orange, "second side of the loop")
        #expect(drawn.pixel(x: 60, y: 30) == Self.orange, "the closing side, back to the first point")
        #expect(drawn.pixel(x: 5, y: 70) == Self.orange, "a dot")
        #expect(drawn.pixel(x: 90, y: 5) == [200, 200, 200])
    }

    /// Points far outside the picture or not finite neither hang nor crash; the visible part is drawn.
    @Test func wildPointsAreClipped() throws {
        let shapes = [
            FaceAnnotation.Shape(points: [CGPoint(x: -1e15, y: 40), CGPoint(x: 1e15, y: 40), CGPoint(x: Double.nan, y: 3)], style: .closed),
            FaceAnnotation.Shape(points: [CGPoint(x: Double.infinity, y: 1), CGPoint(x: 1e300, y: -1e300)], style: .dots),
        ]
        let drawn = FaceAnnotation.drawn([], shapes: shapes, on: try Self.grey())
        #expect(drawn.pixel(x: 50, y: 40) == Self.orange)
        let svg = try FaceAnnotation.svg([], shapes: shapes, on: try Self.grey())
        #expect(svg.contains("<polygon ") && !svg.contains("nan") && !svg.contains("inf"))
    }
}
