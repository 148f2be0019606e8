import Foundation

/// Called when a request finishes, before `perform` returns, on the thread that called `perform`.
public typealias VNRequestCompletionHandler = (VNRequest, (any Error)?) -> Void

/// The revision value meaning "the default".
public let VNRequestRevisionUnspecified = 0

/// Vision's abstract request. Results are read through `results` (declared in protocol extensions,
/// see ``VNRequestResults``): `[VNObservation]?` on a plain `VNRequest`, typed on the face and contour
/// requests. They are nil before the request ran and when it failed, `[]` when it found nothing.
open class VNRequest: NSObject {
    public let completionHandler: VNRequestCompletionHandler?
    /// What the last perform produced; read it through `results`.
    var observations: [VNObservation]?
    private var chosenRevision: Int
    private let cancellation = NSLock()
    private var cancelled = false

    /// Ignored: Visage runs requests on the calling thread, on the CPU.
    public var preferBackgroundProcessing = false
    @available(*, deprecated, message: "Visage always runs on the CPU")
    public var usesCPUOnly = false

    public init(completionHandler: VNRequestCompletionHandler? = nil) {
        self.completionHandler = completionHandler
        chosenRevision = VNRequestRevisionUnspecified
        super.init()
    }

    public convenience override init() {
        self.init(completionHandler: nil)
    }

    /// The algorithm revision: ``defaultRevision`` until set. A revision outside ``supportedRevisions``
    /// makes the request fail with `VNError.Code.unsupportedRevision` when performed.
    public var revision: Int {
        get { chosenRevision == VNRequestRevisionUnspecified ? Self.defaultRevision : chosenRevision }
        set { chosenRevision = newValue }
    }

    open class var supportedRevisions: IndexSet { IndexSet() }
    open class var defaultRevision: Int { supportedRevisions.last ?? VNRequestRevisionUnspecified }
    open class var currentRevision: Int { supportedRevisions.last ?? VNRequestRevisionUnspecified }

    /// Cancels the request: if it has not finished, it fails with `VNError.Code.requestCancelled` and
    /// nil results. Safe to call from another thread while `perform` runs.
    public func cancel() {
        cancellation.withLock { cancelled = true }
    }

    /// Runs the request on `input` and records the outcome (results, then the completion handler).
    /// Returns the error it failed with.
    func perform(on input: VisionInput) -> VNError? {
        let outcome: Result<[VNObservation], VNError>
        do throws(VNError) {
            try checkCancellation()
            guard type(of: self).supportedRevisions.contains(revision) else {
                throw VNError(.unsupportedRevision, "revision \(revision) of \(type(of: self)) is not supported; supported: \(Array(type(of: self).supportedRevisions))")
            }
            let observations = try run(on: input)
            try checkCancellation()
            outcome = .success(observations)
        } catch {
            outcome = .failure(error)
        }
        cancellation.withLock { cancelled = false }
        switch outcome {
        case .success(let found):
            observations = found
            completionHandler?(self, nil)
            return nil
        case .failure(let error):
            observations = nil
            completionHandler?(self, error.nsError)
            return error
        }
    }

    private func checkCancellation() throws(VNError) {
        if cancellation.withLock({ cancelled }) { throw VNError(.requestCancelled, "the request was cancelled") }
    }

    /// The request's work on one image; subclasses override it.
    func run(on input: VisionInput) throws(VNError) -> [VNObservation] {
        throw VNError(.unsupportedRequest, "\(type(of: self)) is abstract")
    }
}

/// A request that analyses an image, or the part of it in ``regionOfInterest``.
open class VNImageBasedRequest: VNRequest {
    /// The part of the image to analyse, normalized, origin at the lower left; `(0, 0, 1, 1)` by default.
    /// Results are normalized to this region, as Vision's. A region outside the unit square makes the
    /// request fail with `VNError.Code.invalidOption`.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
}

/// Where a request's `results` come from. `results` is declared in extensions of this protocol and of
/// ``VNTypedRequestResults`` (not on the class), so that a typed request's `results` wins over the
/// plain one while `(request as VNRequest).results as? [VNFaceObservation]` keeps working.
public protocol VNRequestResults: VNRequest {}

extension VNRequest: VNRequestResults {}

extension VNRequestResults {
    /// The observations of the last perform; nil before it and when it failed.
    public var results: [VNObservation]? { observations }
}

/// A request whose results are all of one observation class.
public protocol VNTypedRequestResults: VNRequestResults {
    associatedtype ResultObservation: VNObservation
}

extension VNTypedRequestResults {
    /// The observations of the last perform, typed; nil before it and when it failed.
    public var results: [ResultObservation]? { observations?.compactMap { $0 as? ResultObservation } }
}

/// Requests that start from faces found earlier.
public protocol VNFaceObservationAccepting: AnyObject {
    var inputFaceObservations: [VNFaceObservation]? { get set }
}
