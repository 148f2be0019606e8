import Foundation
import VisageImage

/// Decoding only what a detection needs (libvips' "shrink on load").
extension FaceDetector {
    /// Twice the short-range detector's input side: a reduced picture's longer side is at least this long.
    package static let shrinkOnLoadMinimum = 2 * DetectorVariant.shortRange.inputSize

    /// The faces of an encoded image and its upright size, decoding only what the request needs.
    ///
    /// Fast-mode detection without the mesh stage decodes a JPEG at the smallest of libjpeg's halving
    /// scales (1/2, 1/4, 1/8) that still gives the short-range detector at least twice its 128-pixel input
    /// on the longer side, and reports the faces in the full picture: a 12-megapixel photo is decoded
    /// at 500×375 instead. Other formats, accurate mode and the mesh features decode the whole image.
    package func analyzedFaces(
        decoding data: Data, features: FaceFeatures, maxFaces: Int? = nil
    ) throws -> (faces: [AnalyzedFace], width: Int, height: Int) {
        let stored = ImageDecodingOptions(applyOrientation: false)
        if options.performanceMode == .fast, !features.needsMesh, !options.needsMesh {
            let info = try ImageFileInfo.read(data: data)
            if info.format == .jpeg {
                var reduced = stored
                reduced.minimumDimension = Self.shrinkOnLoadMinimum
                let upright = info.uprightSize
                let faces = try analyzedFaces(in: try Image(data: data, options: reduced), maxFaces: maxFaces, uprightSize: upright)
                return (faces, upright.width, upright.height)
            }
        }
        let image = try Image(data: data, options: stored)
        let faces = try analyzedFaces(
            in: image, mesh: features.needsMesh, captureQuality: features.contains(.quality), maxFaces: maxFaces)
        let upright = image.orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        return (faces, upright.width, upright.height)
    }
}

extension FacesRecord {
    /// The record of an encoded image, decoding only what the request needs
    /// (``FaceDetector/analyzedFaces(decoding:features:maxFaces:)``).
    package init(decoding data: Data, named name: String, detector: FaceDetector, features: FaceFeatures, maxFaces: Int? = nil) throws {
        let (faces, width, height) = try detector.analyzedFaces(decoding: data, features: features, maxFaces: maxFaces)
        let size = CGSize(width: width, height: height)
        self.init(image: name, width: width, height: height, faces: faces.map { FaceRecord($0, features: features, imageSize: size) })
    }
}
