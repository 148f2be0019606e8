// The contour and landmark drawing of ML Kit's iOS quickstart, minus the view: every contour point and
// landmark of every face turned into a CGPoint to draw. Only the import lines differ from the iOS code.
#if canImport(MLKitFaceDetection)
import MLKitFaceDetection
import MLKitVision
#else
import VisageMLKit
#endif

enum ContourDrawing {
    struct Dot: Equatable {
        var point: CGPoint
        var isLandmark: Bool
    }

    static func dots(for faces: [Face]) -> [Dot] {
        var dots: [Dot] = []
        for face in faces {
            let contourTypes: [FaceContourType] = [
                .face, .leftEyebrowTop, .leftEyebrowBottom, .rightEyebrowTop, .rightEyebrowBottom, .leftEye, .rightEye,
                .upperLipTop, .upperLipBottom, .lowerLipTop, .lowerLipBottom, .noseBridge, .noseBottom, .leftCheek, .rightCheek,
            ]
            for type in contourTypes {
                if let contour = face.contour(ofType: type) {
                    for point in contour.points {
                        dots.append(Dot(point: CGPoint(x: point.x, y: point.y), isLandmark: false))
                    }
                }
            }
            let landmarkTypes: [FaceLandmarkType] = [
                .mouthBottom, .mouthRight, .mouthLeft, .rightEye, .leftEye, .rightEar, .leftEar, .rightCheek, .leftCheek, .noseBase,
            ]
            for type in landmarkTypes {
                if let landmark = face.landmark(ofType: type) {
                    dots.append(Dot(point: CGPoint(x: landmark.position.x, y: landmark.position.y), isLandmark: true))
                }
            }
        }
        return dots
    }
}
