import Foundation
import Testing
import Visage

/// ML Kit's landmarks and contours traced on MediaPipe's meshes of the (frontal) astronaut photos.
struct LandmarkContourTests {
    /// ML Kit's documented point count of each contour type.
    static let mlKitCounts: [FaceContour.ContourType: Int] = [
        .face: 36, .leftEyebrowTop: 5, .leftEyebrowBottom: 5, .rightEyebrowTop: 5, .rightEyebrowBottom: 5,
        .leftEye: 16, .rightEye: 16, .upperLipTop: 11, .upperLipBottom: 9, .lowerLipTop: 9, .lowerLipBottom: 9,
        .noseBridge: 2, .noseBottom: 3, .leftCheek: 1, .rightCheek: 1,
    ]

    @Test(arguments: FaceContour.ContourType.allCases)
    func contourHasMLKitsPointCount(type: FaceContour.ContourType) throws {
        let contours = try FaceContour.all(in: LandmarkFixtures.photo("astronaut.jpg").mesh)
        let contour = try #require(contours.first { $0.type == type })
        #expect(contour.points.count == Self.mlKitCounts[type])
        #expect(Set(type.meshIndices).count == type.meshIndices.count)
    }

    @Test(arguments: LandmarkRegionTests.frontal)
    func contoursTraceTheFace(name: String) throws {
        let mesh = LandmarkFixtures.photo(name).mesh
        let frame = FaceFrame(mesh)
        let contours = Dictionary(uniqueKeysWithValues: try FaceContour.all(in: mesh).map { ($0.type, $0.points.map { frame($0) }) })
        #expect(contours.values.reduce(0) { $0 + $1.count } == 133)
        // The outline is a clockwise loop that starts at the top and holds every other contour.
        let face = contours[.face]!
        #expect(FaceFrame.signedArea(face) > 0)
        #expect(face[0].y - face.map(\.y).min()! < 0.02 * (face.map(\.y).max()! - face.map(\.y).min()!))
        for (type, points) in contours where type != .face {
            #expect(points.allSatisfy { FaceFrame.contains(face, $0) }, "\(type) lies inside the face outline")
        }
        #expect(FaceFrame.signedArea(contours[.leftEye]!) > 0 && FaceFrame.signedArea(contours[.rightEye]!) > 0)
        // Subject's left on the picture's right.
        for (left, right) in [(FaceContour.ContourType.leftEye, FaceContour.ContourType.rightEye), (.leftEyebrowTop, .rightEyebrowTop), (.leftCheek, .rightCheek)] {
            #expect(FaceFrame.centroid(contours[left]!).x > 0 && FaceFrame.centroid(contours[right]!).x < 0)
        }
        // Lines run from the picture's left to its right; eyebrow tops lie above their bottoms.
        for type in [FaceContour.ContourType.leftEyebrowTop, .leftEyebrowBottom, .rightEyebrowTop, .rightEyebrowBottom, .upperLipTop, .upperLipBottom, .lowerLipTop, .lowerLipBottom, .noseBottom] {
            let xs = contours[type]!.map(\.x)
            #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "\(type) runs left to right")
        }
        for (top, bottom) in [(FaceContour.ContourType.leftEyebrowTop, FaceContour.ContourType.leftEyebrowBottom), (.rightEyebrowTop, .rightEyebrowBottom)] {
            #expect(zip(contours[top]!, contours[bottom]!).allSatisfy { $0.y < $1.y })
        }
        // At the midline the lip edges come in order from the top down.
        let middle = [FaceContour.ContourType.upperLipTop, .upperLipBottom, .lowerLipTop, .lowerLipBottom].map { type in
            contours[type]!.min { abs($0.x) < abs($1.x) }!.y
        }
        #expect(zip(middle, middle.dropFirst()).allSatisfy { $0 < $1 })
        let bridge = contours[.noseBridge]!, bottom = contours[.noseBottom]!
        #expect(bridge[0].y < bridge[1].y && bridge[1].y < bottom[1].y)
    }

    @Test(arguments: LandmarkRegionTests.frontal)
    func landmarksSitWhereMLKitPutsThem(name: String) throws {
        let mesh = LandmarkFixtures.photo(name).mesh
        let frame = FaceFrame(mesh)
        let all = try FaceLandmark.all(in: mesh)
        #expect(all.map(\.type) == FaceLandmark.LandmarkType.allCases)
        let at = Dictionary(uniqueKeysWithValues: all.map { ($0.type, frame($0.position)) })
        let eyeSpan = at[.leftEye]!.x - at[.rightEye]!.x
        #expect(eyeSpan > 0)
        #expect(at[.mouthLeft]!.x > 0 && at[.mouthRight]!.x < 0)
        #expect(at[.leftCheek]!.x > 0 && at[.rightCheek]!.x < 0)
        #expect(at[.leftEar]!.x > at[.leftEye]!.x + 0.5 * eyeSpan && at[.rightEar]!.x < at[.rightEye]!.x - 0.5 * eyeSpan)
        #expect(at[.noseBase]!.y > at[.leftEye]!.y && at[.noseBase]!.y < at[.mouthLeft]!.y)
        #expect(at[.mouthBottom]!.y > max(at[.mouthLeft]!.y, at[.mouthRight]!.y))
        #expect(abs(at[.mouthBottom]!.x) < 0.15 * eyeSpan && abs(at[.noseBase]!.x) < 0.15 * eyeSpan)
    }
}
