import Foundation
import Visage

/// Vision's iOS 18 request protocol: a value that analyses one image. Each request here is a thin
/// front for the classic request of the same job (and so for Visage's own request).
public protocol ImageProcessingRequest: Sendable {
    associatedtype Result: Sendable
    /// The part of the image to analyse; results are normalized to it.
    var regionOfInterest: NormalizedRect { get set }
    /// Runs the request on the handler's image; `ImageRequestHandler.perform(_:)` calls it.
    func perform(with handler: ImageRequestHandler) throws -> Result
}

extension ImageProcessingRequest {
    public func perform(on image: CGImage, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try perform(with: ImageRequestHandler(image, orientation: orientation))
    }

    public func perform(on image: CIImage, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try perform(with: ImageRequestHandler(image, orientation: orientation))
    }

    public func perform(on url: URL, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try perform(with: ImageRequestHandler(url, orientation: orientation))
    }

    public func perform(on data: Data, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try perform(with: ImageRequestHandler(data, orientation: orientation))
    }
}

/// Vision's iOS 18 `ImageRequestHandler`: one image (decoded once) for several requests.
public final class ImageRequestHandler: @unchecked Sendable {
    // VisionInput caches the decoded image; the lock makes the handler safe to share between tasks.
    private let input: VisionInput
    private let lock = NSLock()

    public convenience init(_ image: CGImage, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VisionInput(cgImage: image, orientation: orientation))
    }

    public convenience init(_ image: CIImage, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VisionInput(ciImage: image, orientation: orientation))
    }

    public convenience init(_ imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VisionInput(url: imageURL, orientation: orientation))
    }

    public convenience init(_ data: Data, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VisionInput(data: data, orientation: orientation))
    }

    private init(_ input: VisionInput) {
        self.input = input
    }

    public func perform<T: ImageProcessingRequest>(_ request: T) async throws -> T.Result {
        try request.perform(with: self)
    }

    public func perform<each T: ImageProcessingRequest>(_ request: repeat each T) async throws -> (repeat (each T).Result) {
        (repeat try (each request).perform(with: self))
    }

    /// Runs a classic request on the image; throws its error.
    func run(_ request: VNImageBasedRequest, regionOfInterest: NormalizedRect) throws {
        request.regionOfInterest = regionOfInterest.cgRect
        try lock.withLock {
            try VNImageRequestHandler.perform([request], on: input)
        }
    }
}
