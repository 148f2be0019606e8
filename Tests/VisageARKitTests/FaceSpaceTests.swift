import Foundation
import Testing
import Visage
import VisageARKit

/// Names, simd stand-ins and the eye geometry, without the models.
struct FaceSpaceTests {
    @Test func blendShapeLocationsAreARKits() {
        let members: [ARFaceAnchor.BlendShapeLocation] = [
            .eyeBlinkLeft, .eyeLookDownLeft, .eyeLookInLeft, .eyeLookOutLeft, .eyeLookUpLeft, .eyeSquintLeft, .eyeWideLeft,
            .eyeBlinkRight, .eyeLookDownRight, .eyeLookInRight, .eyeLookOutRight, .eyeLookUpRight, .eyeSquintRight,
            .eyeWideRight, .jawForward, .jawLeft, .jawRight, .jawOpen, .mouthClose, .mouthFunnel, .mouthPucker, .mouthLeft,
            .mouthRight, .mouthSmileLeft, .mouthSmileRight, .mouthFrownLeft, .mouthFrownRight, .mouthDimpleLeft,
            .mouthDimpleRight, .mouthStretchLeft, .mouthStretchRight, .mouthRollLower, .mouthRollUpper, .mouthShrugLower,
            .mouthShrugUpper, .mouthPressLeft, .mouthPressRight, .mouthLowerDownLeft, .mouthLowerDownRight,
            .mouthUpperUpLeft, .mouthUpperUpRight, .browDownLeft, .browDownRight, .browInnerUp, .browOuterUpLeft,
            .browOuterUpRight, .cheekPuff, .cheekSquintLeft, .cheekSquintRight, .noseSneerLeft, .noseSneerRight, .tongueOut,
        ]
        #expect(members.map(\.rawValue) == ARKitNames.blendShapes.map(\.1))
        #expect(Set(members).count == 52)
    }

    /// Every model output lands on its ARKit location, as an `NSNumber(value: Float)`; tongueOut is 0.
    @Test func everyCoefficientHasItsLocation() throws {
        let output = (0..<52).map { Float($0) / 100 }
        let shapes = FaceAnchorSlots.blendShapes(try FaceBlendshapes(modelOutput: output))
        #expect(shapes.count == 52)
        for shape in Blendshape.allCases {
            let raw = ARKitNames.blendShapes.first { $0.0 == shape.description }!.1
            #expect(shapes[ARFaceAnchor.BlendShapeLocation(rawValue: raw)] as? Float == Float(shape.rawValue) / 100, "\(shape)")
        }
        #expect(shapes[.tongueOut] as? Float == 0)
        #expect(shapes[.eyeBlinkLeft]?.floatValue == Float(Blendshape.eyeBlinkLeft.rawValue) / 100)
    }

    @Test func matricesAreColumnMajor() {
        let translation = simd_float4x4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(2, 3, 4, 1))
        let scale = simd_float4x4(diagonal: SIMD4(2, 2, 2, 1))
        #expect(translation * SIMD4(1, 1, 1, 1) == SIMD4(3, 4, 5, 1))
        #expect((translation * scale) * SIMD4(1, 1, 1, 1) == SIMD4(4, 5, 6, 1))
        #expect(simd_mul(scale, translation).columns.3 == SIMD4(4, 6, 8, 1))
        #expect(translation[3, 1] == 3 && translation.transpose[1, 3] == 3)
        #expect(matrix_identity_float4x4 * translation == translation)
        #expect(simd_make_float3(translation.columns.3) == SIMD3(2, 3, 4))
    }

    /// The anchor's eye transforms are Visage's gaze transforms, row-major doubles turned into simd's
    /// column-major floats: +z (the third column) along the line of sight, the eyeball centre in the
    /// fourth; without irises, eyes look straight out of the face.
    @Test func eyeTransformsAreTheGazes() throws {
        let geometry = try FaceAnchorGeometry.shared.get()
        let rowMajor: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 1]
        let m = FaceAnchorGeometry.matrix(rowMajor)
        #expect(m.columns.2 == SIMD4(3, 7, 11, 0) && m.columns.3 == SIMD4(4, 8, 12, 1))
        #expect(m[3, 0] == 4, "simd's subscript is [column, row]")
        let pose = HeadPose(transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -50, 0, 0, 0, 1])
        let mesh = FaceMesh(points: [SIMD3<Float>](repeating: SIMD3(0.5, 0.5, 0), count: 468), presence: 1, imageWidth: 640, imageHeight: 480)
        let analysis = FaceAnalysis(
            region: MeshRegion(centerX: 0.5, centerY: 0.5, side: 0.5, rotation: 0, imageWidth: 640, imageHeight: 480), mesh: mesh,
            blendshapes: try FaceBlendshapes(modelOutput: [Float](repeating: 0, count: 52)), pose: pose,
            classification: FaceClassification(smilingProbability: 0, leftEyeOpenProbability: 1, rightEyeOpenProbability: 1))
        #expect(analysis.gaze == nil)
        let eyes = geometry.eyes(analysis)
        #expect(eyes.left.columns.2 == SIMD4(0, 0, 1, 0) && simd_make_float3(eyes.left.columns.3) == geometry.leftEyeCentre)
        #expect(eyes.lookAt.z > 1)
    }

    @Test func eyeballsSitBehindTheEyesOnEachSide() throws {
        let geometry = try FaceAnchorGeometry.shared.get()
        #expect(geometry.leftEyeCentre.x > 0.02 && geometry.rightEyeCentre.x < -0.02)
        #expect(abs(geometry.leftEyeCentre.y - geometry.rightEyeCentre.y) < 0.002)
        #expect(abs(geometry.leftEyeCentre.x + geometry.rightEyeCentre.x) < 0.002)
    }
}
