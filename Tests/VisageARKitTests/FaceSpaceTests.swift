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

    /// A flat synthetic eye: corners at x 100 and 140, lids at y 95 and 105, iris moved by `shift`.
    static func mesh(irisShift shift: SIMD2<Float>) -> FaceMesh {
        var points = [SIMD3<Float>](repeating: .zero, count: FaceMesh.pointCount)
        let scale: Float = 1000
        func set(_ index: Int, _ x: Float, _ y: Float) { points[index] = SIMD3(x / scale, y / scale, 0) }
        for eye in [FaceAnchorGeometry.leftEye, FaceAnchorGeometry.rightEye] {
            set(eye.towardsRight, 100, 100)
            set(eye.towardsLeft, 140, 100)
            set(eye.upperLid, 120, 95)
            set(eye.lowerLid, 120, 105)
            set(eye.iris, 120 + shift.x, 100 + shift.y)
        }
        return FaceMesh(points: points, presence: 1, imageWidth: Int(scale), imageHeight: Int(scale))
    }

    /// The iris moved towards the picture's right (the subject's left in a camera's picture) turns the
    /// gaze to +x; moved up (towards smaller y), to +y; by half of half the eye's width, asin(1.25 · 0.5).
    static let gazeCases: [(SIMD2<Float>, Float, Float)] = [
        (SIMD2(10, 0), asin(0.625), 0), (SIMD2(0, -10), 0, asin(0.625)), (SIMD2(0, 0), 0, 0),
    ]

    @Test(arguments: gazeCases)
    func gazeFollowsTheIris(shift: SIMD2<Float>, yaw: Float, pitch: Float) {
        let gaze = FaceAnchorGeometry.gaze(FaceAnchorGeometry.leftEye, in: Self.mesh(irisShift: shift))
        #expect(abs(gaze.yaw - yaw) < 1e-4 && abs(gaze.pitch - pitch) < 1e-4, "\(gaze)")
        let m = FaceAnchorGeometry.rotation(yaw: gaze.yaw, pitch: gaze.pitch)
        let z = m.columns.2
        #expect(abs(z.x - sin(yaw) * cos(pitch)) < 1e-5 && abs(z.y - sin(pitch)) < 1e-5 && z.z > 0)
        // Orthonormal: the transpose inverts it.
        let product = m.transpose * m
        for c in 0..<4 { for r in 0..<4 { #expect(abs(product[c, r] - (c == r ? 1 : 0)) < 1e-5) } }
    }

    @Test func eyeballsSitBehindTheEyesOnEachSide() throws {
        let geometry = try FaceAnchorGeometry.shared.get()
        #expect(geometry.leftEyeCentre.x > 0.02 && geometry.rightEyeCentre.x < -0.02)
        #expect(abs(geometry.leftEyeCentre.y - geometry.rightEyeCentre.y) < 0.002)
        #expect(abs(geometry.leftEyeCentre.x + geometry.rightEyeCentre.x) < 0.002)
    }
}
