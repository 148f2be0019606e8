import Foundation
import Visage

/// The photos and MediaPipe FaceLandmarker results that `Scripts/make-landmark-fixtures.py` wrote into
/// `Fixtures/landmarks/`.
struct LandmarkFixtures: Decodable {
    struct Detection: Decodable {
        /// xmin, ymin, width, height; normalized, origin top left.
        var box: [Double]
        var score: Double
        var keypoints: [[Double]]
    }

    struct Region: Decodable {
        var xCenter: Double
        var yCenter: Double
        var width: Double
        var height: Double
        var rotation: Double
    }

    struct Photo: Decodable {
        var image: String
        var width: Int
        var height: Int
        /// The roll the script applied to the upright photo, degrees counter-clockwise.
        var rollDegrees: Double
        var detection: Detection
        var roi: Region
        var meshInput: String?
        var meshOutput: [Float]
        var presenceLogit: Float
        /// MediaPipe's 478 × (x, y, z), normalized.
        var landmarks: [Float]
        var blendshapeInput: [Float]
        var blendshapeOutput: [Float]
        var blendshapes: [String: Float]
        /// Row-major 4×4.
        var matrix: [Double]

        /// MediaPipe's landmarks as a mesh.
        var mesh: FaceMesh {
            let points = (0..<FaceMesh.pointCount).map { SIMD3(landmarks[3 * $0], landmarks[3 * $0 + 1], landmarks[3 * $0 + 2]) }
            return FaceMesh(points: points, presence: 1, imageWidth: width, imageHeight: height)
        }

        var region: MeshRegion {
            get throws {
                let box = detection.box, eyes = detection.keypoints
                return try MeshRegion(
                    normalizedBox: (box[0], box[1], box[2], box[3]), rightEye: SIMD2(eyes[0][0], eyes[0][1]),
                    leftEye: SIMD2(eyes[1][0], eyes[1][1]), imageWidth: width, imageHeight: height)
            }
        }
    }

    var mediapipe: String
    var photos: [Photo]

    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("landmarks")

    static let shared: LandmarkFixtures = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("landmarks.json"))
        return try! JSONDecoder().decode(LandmarkFixtures.self, from: data)
    }()

    static func photo(_ name: String) -> Photo {
        shared.photos.first { $0.image == name }!
    }

    static var names: [String] { shared.photos.map(\.image) }

    static func url(_ file: String) -> URL { folder.appendingPathComponent(file) }
}
