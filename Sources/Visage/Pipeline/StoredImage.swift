import Foundation
import VisageImage

/// Decoding for the face requests' file and `Data` entry points. The stored pixels are kept: the
/// pipeline folds the EXIF orientation into its warps instead of rotating the whole picture first.
enum StoredImage {
    static func load(contentsOf url: URL) throws(FaceDetectionError) -> Image {
        do {
            return try Image(contentsOf: url, options: .init(applyOrientation: false))
        } catch {
            throw .image(error)
        }
    }

    static func load(data: Data) throws(FaceDetectionError) -> Image {
        do {
            return try Image(data: data, options: .init(applyOrientation: false))
        } catch {
            throw .image(error)
        }
    }
}
