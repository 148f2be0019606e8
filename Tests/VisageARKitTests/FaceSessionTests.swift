import Foundation
import Testing
import Visage
import VisageARKit

/// The ARKit snippets run through `ARSession` on a four-frame y4m (eyes open, shut, shut, open; made by
/// `Scripts/make-arkit-fixture.sh`), against Visage's own tracker on the same frames.
@Suite(.serialized)
struct FaceSessionTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static let clip = fixtures.appendingPathComponent("blink.y4m").path
    static let mirroredClip = fixtures.appendingPathComponent("blink-mirrored.y4m").path

    /// Visage's native tracking of `path`, as the session is configured by the snippet (up to 16 faces).
    static let native = Result { try nativeTracking(clip) }

    static func nativeTracking(_ path: String) throws -> [(time: Double, faces: [TrackedFace])] {
        let source = try Y4MFrameSource(path: path)
        let handler = try SequenceRequestHandler(options: .init(maximumFaces: ARFaceTrackingConfiguration.supportedNumberOfTrackedFaces))
        var frames: [(Double, [TrackedFace])] = []
        while let frame = try source.nextFrame() { frames.append((frame.time, try handler.perform(on: frame.image, time: frame.time))) }
        return frames
    }

    /// Runs the set-up snippet on `path` until the end of the clip.
    static func run(_ path: String, delegate: BlinkCounter?, mirrored: Bool = false) throws -> SessionRecorder {
        let recorder = SessionRecorder(forwardingTo: delegate)
        let session = ARSession()
        session.delegateQueue = recorder.queue
        if mirrored {
            let configuration = ARFaceTrackingConfiguration()
            configuration.videoInput = path
            configuration.isVideoMirrored = true
            session.delegate = recorder
            session.run(configuration)
        } else {
            FaceTrackingSetup.start(session, delegate: recorder, video: path)
        }
        try #require(recorder.wait(seconds: 600), "the session did not end")
        return recorder
    }

    @Test func blinkSnippetSeesWhatVisageTracks() throws {
        let counter = BlinkCounter()
        let recorder = try Self.run(Self.clip, delegate: counter)
        let native = try Self.native.get()
        #expect(recorder.ended && recorder.error == nil)
        try #require(native.count == 4 && native.allSatisfy { $0.faces.count == 1 })

        // Delegate calls: on the delegate queue, in frame order, the face added once then updated.
        #expect(recorder.calls.allSatisfy { $0.onExpectedQueue })
        #expect(recorder.calls.map(\.kind) == ["frame", "add", "frame", "update", "frame", "update", "frame", "update"])
        #expect(recorder.frames.map(\.timestamp) == native.map(\.time))
        let anchors = recorder.calls.filter { $0.kind != "frame" }.map { $0.anchors }
        try #require(anchors.allSatisfy { $0.count == 1 })
        #expect(Set(anchors.map { $0[0].identifier }).count == 1)

        for (anchor, frame) in zip(anchors.map { $0[0] }, native) {
            let face = frame.faces[0]
            #expect(anchor.isTracked)
            // All 52 names, each an NSNumber holding the tracker's Float exactly (`as? Float` succeeds).
            #expect(anchor.blendShapes.count == 52)
            for shape in Blendshape.allCases {
                let location = ARFaceAnchor.BlendShapeLocation(rawValue: ARKitNames.blendShapes.first { $0.0 == shape.description }!.1)
                #expect(anchor.blendShapes[location] as? Float == face.analysis.blendshapes[shape], "\(shape)")
            }
            #expect(anchor.blendShapes[.tongueOut] as? Float == 0)
            #expect(anchor.transform == FaceAnchorGeometry.anchorTransform(face.analysis.pose))
            #expect(anchor.transform.columns.3.z < -0.2 && anchor.transform.columns.3.z > -3, "a face in front of the camera, metres")
        }

        // The snippet's own reading of the eyes equals the tracker's, and the painted-shut frames blink once.
        #expect(counter.leftValues == native.map { $0.faces[0].eyeBlinkLeft })
        #expect(counter.rightValues == native.map { $0.faces[0].eyeBlinkRight })
        #expect(counter.blinkCount == 1, "left \(counter.leftValues), right \(counter.rightValues)")

        // The expression reader on the last anchor.
        let last = anchors.last![0]
        let reading = FaceExpressionReader.read(last)
        #expect(reading.position == SIMD3(last.transform.columns.3.x, last.transform.columns.3.y, last.transform.columns.3.z))
        #expect(reading.coefficients.count == 52 && reading.coefficients["eyeBlink_L"] == native[3].faces[0].eyeBlinkLeft)
        let smile = native[3].faces[0].analysis.blendshapes
        #expect(reading.isSmiling == (smile[.mouthSmileLeft] + smile[.mouthSmileRight] > 0.9))
        // Face space: the subject's left eye at +x, the right at −x; the astronaut looks about into the lens.
        #expect(reading.leftEyePosition.x > 0.02 && reading.rightEyePosition.x < -0.02)
        #expect(reading.lookAtPoint.z > 0.2 && abs(reading.lookAtPoint.x) < 0.5 * reading.lookAtPoint.z, "\(reading.lookAtPoint)")
    }

    /// A selfie-view clip (flipped left to right) with `isVideoMirrored` gives the unmirrored clip's
    /// results: left and right stay the subject's.
    @Test func mirroredInputKeepsTheSubjectsSides() throws {
        let recorder = try Self.run(Self.mirroredClip, delegate: nil, mirrored: true)
        let native = try Self.native.get()
        let anchors = recorder.calls.filter { $0.kind != "frame" }.compactMap(\.anchors.first)
        try #require(anchors.count == native.count)
        for (anchor, frame) in zip(anchors, native) {
            let face = frame.faces[0]
            for shape in [Blendshape.eyeBlinkLeft, .eyeBlinkRight, .mouthSmileLeft, .mouthSmileRight] {
                let raw = ARKitNames.blendShapes.first { $0.0 == shape.description }!.1
                let value = try #require(anchor.blendShapes[ARFaceAnchor.BlendShapeLocation(rawValue: raw)]?.floatValue)
                #expect(abs(value - face.analysis.blendshapes[shape]) < 0.05, "\(shape): \(value) vs \(face.analysis.blendshapes[shape])")
            }
            let expected = FaceAnchorGeometry.anchorTransform(face.analysis.pose).columns.3
            #expect(abs(anchor.transform.columns.3.x - expected.x) < 0.005 && abs(anchor.transform.columns.3.z - expected.z) < 0.01)
        }
    }

    @Test func pauseStopsDelegateCalls() throws {
        final class PausingDelegate: ARSessionDelegate, @unchecked Sendable {
            let first = DispatchSemaphore(value: 0)
            var calls = 0
            func session(_ session: ARSession, didUpdate frame: ARFrame) {
                calls += 1
                if calls == 1 {
                    session.pause()
                    first.signal()
                }
            }
        }
        let delegate = PausingDelegate()
        let session = ARSession()
        let queue = DispatchQueue(label: "pause")
        session.delegateQueue = queue
        session.delegate = delegate
        let configuration = ARFaceTrackingConfiguration()
        configuration.videoInput = Self.clip
        session.run(configuration)
        try #require(delegate.first.wait(timeout: .now() + 300) == .success)
        Thread.sleep(forTimeInterval: 1)
        #expect(queue.sync { delegate.calls } == 1)
    }

    @Test func unopenableInputFailsWithSensorUnavailable() throws {
        let recorder = SessionRecorder(forwardingTo: nil)
        let session = ARSession()
        session.delegate = recorder
        FaceTrackingSetup.start(session, delegate: recorder, video: "/nonexistent/clip.y4m")
        try #require(recorder.wait(seconds: 60))
        #expect(recorder.error?.code == .sensorUnavailable)
        #expect(recorder.error?.reason.contains("/nonexistent/clip.y4m") == true)
        #expect(recorder.frames.isEmpty)
        #expect(recorder.error?.visageCode == ErrorRecord(VideoError.unreadable(path: "x", reason: "y")).code.rawValue)
        #expect((recorder.error as NSError?)?.userInfo["VisageErrorCode"] as? String == recorder.error?.visageCode)
    }

    @Test func unsupportedConfigurationsFail() throws {
        for configuration in [ARConfiguration(), { let c = ARFaceTrackingConfiguration(); c.maximumNumberOfTrackedFaces = 0; return c }()] {
            let recorder = SessionRecorder(forwardingTo: nil)
            let session = ARSession()
            session.delegate = recorder
            session.run(configuration)
            try #require(recorder.wait(seconds: 60))
            #expect(recorder.error?.code == .unsupportedConfiguration)
            #expect((recorder.error as NSError?)?.code == 100)
            #expect(recorder.error?.visageCode == "invalid_parameter")
        }
    }

    /// `isSupported` looks at the default camera: `$VISAGE_CAMERA` when set.
    @Test func supportedWhenTheDefaultCameraOpens() {
        let saved = ProcessInfo.processInfo.environment["VISAGE_CAMERA"]
        defer { if let saved { setenv("VISAGE_CAMERA", saved, 1) } else { unsetenv("VISAGE_CAMERA") } }
        setenv("VISAGE_CAMERA", Self.clip, 1)
        #expect(ARFaceTrackingConfiguration.isSupported)
        setenv("VISAGE_CAMERA", "/nonexistent/video9", 1)
        #expect(!ARFaceTrackingConfiguration.isSupported)
        #expect(!ARConfiguration.isSupported)
    }
}
