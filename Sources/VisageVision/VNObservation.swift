import Foundation

/// A confidence in 0…1.
public typealias VNConfidence = Float

/// Vision's base of every result: a `uuid`, a `confidence` and the revision of the request that made it.
open class VNObservation: NSObject, @unchecked Sendable {
    public let uuid: UUID
    public let confidence: VNConfidence
    public let requestRevision: Int

    init(uuid: UUID = UUID(), confidence: VNConfidence, requestRevision: Int) {
        self.uuid = uuid
        self.confidence = confidence
        self.requestRevision = requestRevision
    }
}

/// An observation with a box: `boundingBox` is normalized to the image (or the request's region of
/// interest), origin at the lower left.
open class VNDetectedObjectObservation: VNObservation, @unchecked Sendable {
    public let boundingBox: CGRect

    init(uuid: UUID = UUID(), confidence: VNConfidence, requestRevision: Int, boundingBox: CGRect) {
        self.boundingBox = boundingBox
        super.init(uuid: uuid, confidence: confidence, requestRevision: requestRevision)
    }

    /// An observation of `boundingBox` with confidence 1, as Vision's.
    public convenience init(boundingBox: CGRect) {
        self.init(confidence: 1, requestRevision: 0, boundingBox: boundingBox)
    }

    public convenience init(requestRevision: Int, boundingBox: CGRect) {
        self.init(confidence: 1, requestRevision: requestRevision, boundingBox: boundingBox)
    }
}
