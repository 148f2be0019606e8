import Foundation
import VisageImage

/// Performs several requests on one image, decoding it at most once: Vision's `ImageRequestHandler`.
///
/// ```swift
/// let handler = ImageRequestHandler(URL(fileURLWithPath: "photo.jpg"))
/// let (faces, contours) = try await handler.perform(DetectFaceRectanglesRequest(), DetectContoursRequest())
/// var landmarks = DetectFaceLandmarksRequest()
/// landmarks.inputFaceObservations = faces      // the same faces, no second detection
/// let detailed = try await handler.perform(landmarks)
/// ```
public struct ImageRequestHandler: Sendable {
    private let source: ImageSource
    private let orientation: ImageOrientation?

    /// A handler for a decoded image; `orientation`, when given, replaces the image's own.
    public init(_ image: Image, orientation: ImageOrientation? = nil) {
        source = ImageSource(.decoded(image))
        self.orientation = orientation
    }

    /// A handler for the image file at `url`, decoded on first use.
    public init(_ url: URL, orientation: ImageOrientation? = nil) {
        source = ImageSource(.file(url))
        self.orientation = orientation
    }

    /// A handler for an encoded image (JPEG, PNG …), decoded on first use.
    public init(_ data: Data, orientation: ImageOrientation? = nil) {
        source = ImageSource(.encoded(data))
        self.orientation = orientation
    }

    /// Performs `request` on the image.
    /// - Throws: ``FaceDetectionError/image(_:)`` when the image cannot be decoded, or the request's error.
    public func perform<Request: ImageProcessingRequest>(_ request: Request) async throws -> Request.Result {
        try await request.perform(on: source.image(), orientation: orientation)
    }

    /// Performs every request on the image and returns their results in the same order.
    public func perform<each Request: ImageProcessingRequest>(
        _ request: repeat each Request
    ) async throws -> (repeat (each Request).Result) {
        let image = try await source.image()
        return (repeat try await (each request).perform(on: image, orientation: orientation))
    }
}

/// Decodes the handler's image once, however many requests and tasks ask for it.
private actor ImageSource {
    enum State {
        case file(URL)
        case encoded(Data)
        case decoded(Image)
        case failed(FaceDetectionError)
    }

    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func image() throws(FaceDetectionError) -> Image {
        let decoded: Result<Image, ImageError>
        switch state {
        case .decoded(let image): return image
        case .failed(let error): throw error
        case .file(let url): decoded = Result { () throws(ImageError) in try Image(contentsOf: url, options: .init(applyOrientation: false)) }
        case .encoded(let data): decoded = Result { () throws(ImageError) in try Image(data: data, options: .init(applyOrientation: false)) }
        }
        switch decoded {
        case .success(let image):
            state = .decoded(image)
            return image
        case .failure(let error):
            state = .failed(.image(error))
            throw .image(error)
        }
    }
}
