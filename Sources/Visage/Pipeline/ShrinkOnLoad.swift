import Foundation
import VisageImage

/// Decoding only what a detection needs (libvips' "shrink on load").
extension FaceDetector {
    /// Twice the short-range detector's input side: a reduced picture's longer side is at least this long.
    package static let shrinkOnLoadMinimum = 2 * DetectorVariant.shortRange.inputSize

    /// The faces of an encoded image and its upright size, decoding only what the request needs.
    ///
    /// Fast-mode detection decodes a JPEG at the smallest of libjpeg's halving scales (1/2, 1/4, 1/8)
    /// that still gives the short-range detector at least twice its 128-pixel input on the longer side,
    /// and reports the faces in the full picture: a 12-megapixel photo is decoded at 500×375 instead.
    /// The mesh stage (mesh features, quality) then decodes, per face, only the part of the JPEG its
    /// region's warp reaches, at full resolution (``RegionSource``). Other formats and accurate mode
    /// decode the whole image.
    package func analyzedFaces(
        decoding data: Data, features: FaceFeatures, maxFaces: Int? = nil
    ) throws -> (faces: [AnalyzedFace], width: Int, height: Int) {
        let stored = ImageDecodingOptions(applyOrientation: false)
        let mesh = features.needsMesh, quality = features.contains(.quality)
        if options.performanceMode == .fast {
            let info = try ImageFileInfo.read(data: data)
            if info.format == .jpeg {
                var reduced = stored
                reduced.minimumDimension = Self.shrinkOnLoadMinimum
                let image = try Image(data: data, options: reduced)
                let upright = info.uprightSize
                let faces = try detectedFaces(in: image, maxFaces: maxFaces).map { $0.reported(width: upright.width, height: upright.height) }
                // A picture too small to shrink is already whole: its regions need no second decode.
                let source = image.width == info.width ? RegionSource(image) : RegionSource(encoded: data, info: info)
                return (try analyzed(faces, from: source, mesh: mesh, captureQuality: quality), upright.width, upright.height)
            }
        }
        let image = try Image(data: data, options: stored)
        let faces = try analyzedFaces(in: image, mesh: mesh, captureQuality: quality, maxFaces: maxFaces)
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
