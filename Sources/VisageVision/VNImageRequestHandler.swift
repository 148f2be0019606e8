import Foundation

/// Options for a handler; Visage reads none of them (camera intrinsics and a Core Image context mean
/// nothing here) and accepts any.
public struct VNImageOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let properties = VNImageOption(rawValue: "VNImageOptionProperties")
    public static let cameraIntrinsics = VNImageOption(rawValue: "VNImageOptionCameraIntrinsics")
    public static let ciContext = VNImageOption(rawValue: "VNImageOptionCIContext")
}

/// Performs requests on one image: Vision's `VNImageRequestHandler`.
///
/// `orientation` (EXIF 1–8) says how the stored pixels are turned and overrides the file's own; without
/// it, a URL's or Data's EXIF orientation applies and a `CGImage` is taken as upright. The image is decoded
/// once, on the first perform. Results are in the upright picture.
public final class VNImageRequestHandler: NSObject {
    private let input: VisionInput

    public init(cgImage: CGImage, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(cgImage: cgImage, orientation: nil)
    }

    public init(cgImage: CGImage, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(cgImage: cgImage, orientation: orientation)
    }

    public init(ciImage: CIImage, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(ciImage: ciImage, orientation: nil)
    }

    public init(ciImage: CIImage, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(ciImage: ciImage, orientation: orientation)
    }

    public init(url imageURL: URL, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(url: imageURL, orientation: nil)
    }

    public init(url imageURL: URL, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(url: imageURL, orientation: orientation)
    }

    public init(data imageData: Data, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(data: imageData, orientation: nil)
    }

    public init(data imageData: Data, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        input = VisionInput(data: imageData, orientation: orientation)
    }

    /// Runs `requests` in order on the calling thread. Each request's `results` and completion handler
    /// report its own outcome; a request that fails does not stop the others.
    ///
    /// - Throws: an `NSError` in `VNErrorDomain` (`VNError.Code.ioError` for an unreadable file, `.invalidImage` for undecodable data) before
    ///   any request runs when the image cannot be decoded, else the first request's error.
    public func perform(_ requests: [VNRequest]) throws {
        try Self.perform(requests, on: input)
    }

    static func perform(_ requests: [VNRequest], on input: VisionInput) throws {
        do {
            _ = try input.image()
        } catch {
            throw error.nsError
        }
        var first: VNError?
        for request in requests {
            if let error = request.perform(on: input), first == nil { first = error }
        }
        if let first { throw first.nsError }
    }
}

/// Performs requests on a sequence of images: Vision's `VNSequenceRequestHandler`. Each call analyses
/// its own image as ``VNImageRequestHandler`` does; tracking requests (``VNTrackObjectRequest``) keep
/// their trackers here from frame to frame.
public final class VNSequenceRequestHandler: NSObject {
    private let trackers = FaceTrackers()

    public override init() {}

    private func perform(_ requests: [VNRequest], on input: VisionInput) throws {
        input.trackers = trackers
        try VNImageRequestHandler.perform(requests, on: input)
    }

    public func perform(_ requests: [VNRequest], on image: CGImage) throws {
        try perform(requests, on: VisionInput(cgImage: image, orientation: nil))
    }

    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: VisionInput(cgImage: image, orientation: orientation))
    }

    public func perform(_ requests: [VNRequest], on image: CIImage) throws {
        try perform(requests, on: VisionInput(ciImage: image, orientation: nil))
    }

    public func perform(_ requests: [VNRequest], on image: CIImage, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: VisionInput(ciImage: image, orientation: orientation))
    }

    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL) throws {
        try perform(requests, on: VisionInput(url: imageURL, orientation: nil))
    }

    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: VisionInput(url: imageURL, orientation: orientation))
    }

    public func perform(_ requests: [VNRequest], onImageData imageData: Data) throws {
        try perform(requests, on: VisionInput(data: imageData, orientation: nil))
    }

    public func perform(_ requests: [VNRequest], onImageData imageData: Data, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: VisionInput(data: imageData, orientation: orientation))
    }
}
