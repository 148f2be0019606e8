import Foundation
import Visage

public let VNTrackObjectRequestRevision1 = 1
public let VNTrackObjectRequestRevision2 = 2

/// How hard a tracker works (Visage's face tracker has one level; both are accepted).
public enum VNRequestTrackingLevel: UInt, Sendable, Hashable {
    case accurate = 0
    case fast = 1
}

/// Vision's abstract tracking request: follows `inputObservation` from frame to frame of a
/// `VNSequenceRequestHandler`.
open class VNTrackingRequest: VNImageBasedRequest {
    /// The object to follow: the first frame's observation, then each frame's result.
    public var inputObservation: VNDetectedObjectObservation
    public var trackingLevel: VNRequestTrackingLevel = .accurate
    /// Set on the last frame: the handler then forgets this tracker.
    public var isLastFrame = false

    init(inputObservation: VNDetectedObjectObservation, completionHandler: VNRequestCompletionHandler?) {
        self.inputObservation = inputObservation
        super.init(completionHandler: completionHandler)
    }
}

/// Follows a face through a sequence: Vision's `VNTrackObjectRequest`, over Visage's face tracker
/// (`SequenceRequestHandler`, which carries each face's mesh region to the next frame).
///
/// Visage tracks faces, not arbitrary objects: on the first frame the request takes the tracked face
/// whose box overlaps `inputObservation.boundingBox` most, centres the box on it, then follows that
/// face by its tracking ID. The result keeps the input's `uuid` and size, and from the second frame
/// moves and scales its box as the face's mesh box moves and scales. `confidence` is the face mesh's presence score (0…1); it is 0, and the box stays where it
/// was, when the face is lost or the box covers no face. Perform it with a `VNSequenceRequestHandler`.
public final class VNTrackObjectRequest: VNTrackingRequest, VNTypedRequestResults {
    public typealias ResultObservation = VNDetectedObjectObservation

    public init(detectedObjectObservation observation: VNDetectedObjectObservation) {
        super.init(inputObservation: observation, completionHandler: nil)
    }

    public init(detectedObjectObservation observation: VNDetectedObjectObservation, completionHandler: VNRequestCompletionHandler? = nil) {
        super.init(inputObservation: observation, completionHandler: completionHandler)
    }

    public override class var supportedRevisions: IndexSet { IndexSet(1 ... 2) }

    override func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        guard let trackers = input.trackers else {
            throw VNError(.invalidOperation, "VNTrackObjectRequest needs a VNSequenceRequestHandler, which keeps the tracker between frames")
        }
        let (image, orientation) = try input.image(regionOfInterest: regionOfInterest)
        let observation = inputObservation
        let box = try trackers.track(
            observation.uuid, box: observation.boundingBox, in: orientation.map { image.withOrientation($0) } ?? image,
            finished: isLastFrame)
        return [VNDetectedObjectObservation(
            uuid: observation.uuid, confidence: box.confidence, requestRevision: revision, boundingBox: box.rect)]
    }
}

/// The face trackers of one `VNSequenceRequestHandler`, one per tracked observation.
final class FaceTrackers {
    private struct Tracker {
        let handler: Visage.SequenceRequestHandler
        var trackingID: Int?
        /// The followed face's mesh box on the last frame it was seen (normalized, origin lower left).
        var lastFaceBox: CGRect?
        var frames = 0
    }

    private var trackers: [UUID: Tracker] = [:]

    /// Where the box of observation `id` is in `image`, and how sure the tracker is.
    func track(_ id: UUID, box: CGRect, in image: Image, finished: Bool) throws(VNError) -> (rect: CGRect, confidence: Float) {
        var tracker: Tracker
        if let existing = trackers[id] {
            tracker = existing
        } else {
            do {
                tracker = Tracker(handler: try Visage.SequenceRequestHandler(options: .init(maximumFaces: 4)))
            } catch {
                throw VNError(visage: error)
            }
        }
        defer { trackers[id] = finished ? nil : tracker }

        let faces: [TrackedFace]
        do {
            // Frames are numbered at 30 per second: the tracker's time only orders them.
            faces = try tracker.handler.perform(on: image, time: Double(tracker.frames) / 30)
        } catch {
            throw VNError(visage: error)
        }
        tracker.frames += 1
        let size = image.size
        func normalized(_ frame: CGRect) -> CGRect {
            CGRect(x: frame.minX / size.width, y: 1 - frame.maxY / size.height,
                   width: frame.width / size.width, height: frame.height / size.height)
        }
        let face: TrackedFace?
        if let id = tracker.trackingID {
            face = faces.first { $0.trackingID == id }
        } else {
            face = faces.map { ($0, Self.overlap(normalized($0.frame), box)) }.filter { $0.1 > 0 }.max { $0.1 < $1.1 }?.0
            tracker.trackingID = face?.trackingID
        }
        guard let face else { return (box, 0) }
        let faceBox = normalized(face.frame)
        defer { tracker.lastFaceBox = faceBox }
        guard let last = tracker.lastFaceBox, last.width > 0, last.height > 0 else {
            // First frame: the box keeps its size and is centred on the face.
            let centred = CGRect(x: faceBox.midX - box.width / 2, y: faceBox.midY - box.height / 2, width: box.width, height: box.height)
            return (centred, face.analysis.mesh.presence)
        }
        // The box moves with the face's centre and scales with its size.
        let scaleX = faceBox.width / last.width, scaleY = faceBox.height / last.height
        let center = CGPoint(x: faceBox.midX + (box.midX - last.midX) * scaleX, y: faceBox.midY + (box.midY - last.midY) * scaleY)
        let width = box.width * scaleX, height = box.height * scaleY
        return (CGRect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height), face.analysis.mesh.presence)
    }

    private static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull, i.width > 0, i.height > 0 else { return 0 }
        let inter = Double(i.width * i.height)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }
}
