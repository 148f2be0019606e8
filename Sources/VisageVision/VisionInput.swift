import Foundation
import Visage

/// The image a handler was given, decoded on first use, with the orientation the requests apply.
final class VisionInput {
    private enum Source {
        case file(URL)
        case encoded(Data)
        case decoded(Image)
    }

    private var source: Source
    private let orientation: ImageOrientation?
    private var upright: Image?
    /// The sequence handler's trackers, for tracking requests; nil for a single image.
    var trackers: FaceTrackers?

    private init(_ source: Source, orientation: CGImagePropertyOrientation?) {
        self.source = source
        self.orientation = orientation.map(ImageOrientation.init)
    }

    convenience init(url: URL, orientation: CGImagePropertyOrientation?) { self.init(.file(url), orientation: orientation) }
    convenience init(data: Data, orientation: CGImagePropertyOrientation?) { self.init(.encoded(data), orientation: orientation) }

    convenience init(cgImage: CGImage, orientation: CGImagePropertyOrientation?) {
        self.init(.decoded(cgImage.visageImage), orientation: orientation)
    }

    /// A `CIImage` keeps what `oriented(_:)` did to it; the handler's orientation applies on top.
    convenience init(ciImage: CIImage, orientation: CGImagePropertyOrientation?) {
        let image = ciImage.visageImage
        self.init(.decoded(orientation == nil ? image : image.applyingOrientation()), orientation: orientation)
    }

    /// The stored pixels and the orientation to apply: the handler's, else the file's EXIF orientation.
    func image() throws(VNError) -> (image: Image, orientation: ImageOrientation?) {
        switch source {
        case .decoded(let image):
            return (image, orientation)
        case .file(let url):
            do {
                let image = try Image(contentsOf: url, options: .init(applyOrientation: false))
                source = .decoded(image)
                return (image, orientation)
            } catch {
                throw VNError(visage: error)
            }
        case .encoded(let data):
            do {
                let image = try Image(data: data, options: .init(applyOrientation: false))
                source = .decoded(image)
                return (image, orientation)
            } catch {
                throw VNError(visage: error)
            }
        }
    }

    /// What Visage's requests analyse for `regionOfInterest`: the whole image with its orientation, or
    /// the region cut from the upright picture (rounded to whole pixels), whose results are then
    /// normalized to the region as Vision's are.
    func image(regionOfInterest roi: CGRect) throws(VNError) -> (image: Image, orientation: ImageOrientation?) {
        let whole = try image()
        if roi == CGRect(x: 0, y: 0, width: 1, height: 1) { return whole }
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard roi.width > 0, roi.height > 0, [roi.minX, roi.minY, roi.maxX, roi.maxY].allSatisfy(\.isFinite),
              unit.contains(roi.standardized)
        else {
            throw VNError(.invalidOption, "regionOfInterest \(roi) must be a non-empty rectangle within (0, 0, 1, 1)")
        }
        if upright == nil {
            let oriented = whole.orientation.map { whole.image.withOrientation($0) } ?? whole.image
            upright = oriented.applyingOrientation()
        }
        let picture = upright!
        let pixels = CGRect(
            x: roi.minX * CGFloat(picture.width), y: (1 - roi.maxY) * CGFloat(picture.height),
            width: roi.width * CGFloat(picture.width), height: roi.height * CGFloat(picture.height))
        let rounded = CGRect(
            x: pixels.minX.rounded(), y: pixels.minY.rounded(),
            width: max(1, pixels.width.rounded()), height: max(1, pixels.height.rounded()))
        guard let region = CGImage(visageImage: picture).cropping(to: rounded) else {
            throw VNError(.invalidOption, "regionOfInterest \(roi) covers no pixel of the image")
        }
        return (region.visageImage, .up)
    }
}
