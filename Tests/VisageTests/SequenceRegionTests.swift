import Testing
import Visage

/// Video's first region for a detected face (``SequenceRequestHandler/region(for:)``): the image pipeline's,
/// MediaPipe's FaceLandmarker rule in both its modes (1.5× the box's width and height, not squared).
struct SequenceRegionTests {
    static func face(_ detection: Detection, meshDetection: Detection? = nil) -> DetectedFace {
        DetectedFace(
            detection: detection, imageWidth: 640, imageHeight: 480, angles: HeadAngles(roll: 0, yaw: 0, pitch: 0),
            keypointDetector: .shortRange, meshDetection: meshDetection)
    }

    /// A box 0.3 × 0.36 of a 640×480 picture (192 × 172.8 px, not square), eyes level but for a small turn.
    static let wide = Detection(
        xMin: 0.2, yMin: 0.25, width: 0.3, height: 0.36,
        keypoints: [SIMD2(0.3, 0.35), SIMD2(0.42, 0.36), SIMD2(0.36, 0.45), SIMD2(0.36, 0.52), SIMD2(0.22, 0.38), SIMD2(0.48, 0.39)],
        score: 0.9)

    @Test("A detection's region keeps the box's aspect, as the image pipeline's")
    func unsquaredDetectionRegion() throws {
        let region = try #require(SequenceRequestHandler.region(for: Self.face(Self.wide)))
        let expected = try MeshRegion(detection: Self.wide, imageWidth: 640, imageHeight: 480)
        #expect(region == expected)
        #expect(abs(region.side - 1.5 * 192) < 1e-3)  // the detection is in Float
        #expect(abs(region.height - 1.5 * 172.8) < 1e-3)
    }

    @Test("Accurate mode's face starts from fast mode's detection, as in image mode")
    func meshDetectionFirst() throws {
        var fast = Self.wide
        fast.xMin += 0.01
        fast.height = 0.34
        let region = try #require(SequenceRequestHandler.region(for: Self.face(Self.wide, meshDetection: fast)))
        #expect(region == (try MeshRegion(detection: fast, imageWidth: 640, imageHeight: 480)))
    }

    @Test("No eyes, no region")
    func degenerate() {
        var bare = Self.wide
        bare.keypoints = [SIMD2(0.3, 0.35)]
        #expect(SequenceRequestHandler.region(for: Self.face(bare)) == nil)
    }
}
