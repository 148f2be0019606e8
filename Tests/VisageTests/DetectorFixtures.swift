import Foundation
import Testing
import Visage

/// The photos and MediaPipe results that `Scripts/make-face-fixtures.py` wrote into `Fixtures/`.
struct DetectorFixtures: Decodable {
    struct SolutionDetection: Decodable {
        /// xmin, ymin, width, height; normalized, origin top left.
        var box: [Double]
        var score: Double
        var keypoints: [[Double]]
    }

    struct TasksDetection: Decodable {
        /// origin x, origin y, width, height in pixels, truncated towards zero by MediaPipe.
        var pixelBox: [Int]
        var score: Double
        var keypoints: [[Double]]
    }

    struct RawOutputs: Decodable {
        var regressors: String
        var classificators: String
    }

    struct Tensors: Decodable {
        var input: String?
        /// The dense full-range model's outputs (the one Visage ships), recorded for one photo.
        var dense: RawOutputs?
        var regressors: String
        var classificators: String
        var solution: [SolutionDetection]
        var tasks: [TasksDetection]?
    }

    struct Photo: Decodable {
        var image: String
        var width: Int
        var height: Int
        var shortRange: Tensors
        var fullRange: Tensors

        func tensors(_ variant: DetectorVariant) -> Tensors {
            variant == .shortRange ? shortRange : fullRange
        }
    }

    var mediapipe: String
    var photos: [Photo]

    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static let shared: DetectorFixtures = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("detections.json"))
        return try! JSONDecoder().decode(DetectorFixtures.self, from: data)
    }()

    static func photo(_ name: String) -> Photo {
        shared.photos.first { $0.image == name }!
    }

    static func url(_ file: String) -> URL { folder.appendingPathComponent(file) }

    /// A little-endian float32 file.
    static func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: url(file))
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(file)))
    }
}

extension DetectorFixtures {
    /// Detections against MediaPipe's, in order: boxes and keypoints within 0.002 (normalized, origin top
    /// left), scores within `scoreTolerance`.
    static func expect(_ found: [Detection], toMatch expected: [SolutionDetection], scoreTolerance: Double) throws {
        try #require(found.count == expected.count, "\(found.count) faces, MediaPipe \(expected.count)")
        for (ours, theirs) in zip(found, expected) {
            let box = [ours.xMin, ours.yMin, ours.width, ours.height].map(Double.init)
            for (a, b) in zip(box, theirs.box) { #expect(abs(a - b) <= 0.002, "box \(box) vs \(theirs.box)") }
            for (point, reference) in zip(ours.keypoints, theirs.keypoints) {
                #expect(abs(Double(point.x) - reference[0]) <= 0.002 && abs(Double(point.y) - reference[1]) <= 0.002,
                        "keypoint \(point) vs \(reference)")
            }
            #expect(abs(Double(ours.score) - theirs.score) <= scoreTolerance, "score \(ours.score) vs \(theirs.score)")
        }
    }
}
