import Foundation
import Testing
import Visage

@Suite struct FaceAnnotationTests {
    static let face = Face(
        frame: CGRect(x: 20, y: 10, width: 48, height: 48), headEulerAngleX: 0, headEulerAngleY: 0, headEulerAngleZ: 0,
        confidence: 0.9,
        keypoints: Dictionary(uniqueKeysWithValues: FaceKeypoint.allCases.enumerated().map { ($1, CGPoint(x: 30 + 5 * $0, y: 30)) }))

    static func grey() throws -> Image {
        try Image(width: 100, height: 80, pixelFormat: .gray8, pixels: [UInt8](repeating: 200, count: 8000))
    }

    @Test func boxesAndKeypointsAreDrawnInTeal() throws {
        let drawn = FaceAnnotation.drawn([Self.face], on: try Self.grey())
        #expect(drawn.pixelFormat == .rgb8 && drawn.width == 100 && drawn.height == 80)
        #expect(drawn.pixel(x: 20, y: 30) == [0, 128, 128], "left edge of the box")
        #expect(drawn.pixel(x: 67, y: 57) == [0, 128, 128], "bottom-right corner")
        #expect(drawn.pixel(x: 35, y: 30) == [0, 128, 128], "a keypoint")
        #expect(drawn.pixel(x: 50, y: 45) == [200, 200, 200], "inside the box, away from keypoints")
        #expect(drawn.pixel(x: 90, y: 70) == [200, 200, 200], "outside the box")
    }

    @Test func faceOutsideThePictureIsClipped() throws {
        let far = Face(frame: CGRect(x: -1e12, y: 5, width: 2e12, height: .infinity), headEulerAngleX: 0, headEulerAngleY: 0,
                       headEulerAngleZ: 0, confidence: 0.5, keypoints: [.noseTip: CGPoint(x: 1e9, y: -1e9)])
        let drawn = FaceAnnotation.drawn([far], on: try Self.grey())
        #expect(drawn.width == 100)
    }

    @Test func svgHasOneBoxAndSixKeypoints() throws {
        let svg = try FaceAnnotation.svg([Self.face], on: try Self.grey())
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.components(separatedBy: "<rect ").count - 1 == 1)
        #expect(svg.components(separatedBy: "<circle ").count - 1 == 6)
        #expect(svg.contains("x=\"20.00\" y=\"10.00\" width=\"48.00\" height=\"48.00\""))
    }
}
