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
    /// and reports the faces in the full picture: a 12-megapixel photo is decoded at 500×375 instead, from its
    /// blocks' DC terms alone when it is a baseline JPEG (`JPEGDCDecoder`: about 0.2 of a full decode's time
    /// where libjpeg's own 1/8 decode takes 0.3–0.45, since libjpeg still decodes every AC symbol one by one).
    ///
    /// Features that need the mesh (landmarks, contours, classification, mesh, quality) decode the whole
    /// image by default, because the mesh follows the detector's box: a box found on the reduced decode
    /// (within 1 % of the picture of the full decode's) moves the mesh by a median 0.6–3.6 px on the test
    /// photos, and MediaPipe's parity is worth more than the time. With `meshFromReducedDecode` they take
    /// the faster path instead: detection on the reduced decode, then, per face, only the part of the JPEG
    /// the mesh region's warp reaches, at full resolution (``RegionSource``): about half the CPU on a
    /// 12-megapixel photo. Other formats and accurate mode decode the whole image.
    ///
    /// `decodeThreads` is ``ImageDecodingOptions/threads`` for the decode: a JPEG with restart markers then
    /// decodes in that many bands at once (for one image at a time; many images are better run side by side).
    package func analyzedFaces(
        decoding data: Data, features: FaceFeatures, maxFaces: Int? = nil, meshFromReducedDecode: Bool = false,
        decodeThreads: Int = 1
    ) throws -> (faces: [AnalyzedFace], width: Int, height: Int) {
        var stored = ImageDecodingOptions(applyOrientation: false)
        stored.threads = decodeThreads
        let mesh = features.needsMesh, quality = features.contains(.quality)
        if options.performanceMode == .fast, meshFromReducedDecode || !(mesh || quality) {
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
    /// (``FaceDetector/analyzedFaces(decoding:features:maxFaces:meshFromReducedDecode:decodeThreads:)``).
    package init(
        decoding data: Data, named name: String, detector: FaceDetector, features: FaceFeatures, maxFaces: Int? = nil,
        meshFromReducedDecode: Bool = false
    ) throws {
        let (faces, width, height) = try detector.analyzedFaces(
            decoding: data, features: features, maxFaces: maxFaces, meshFromReducedDecode: meshFromReducedDecode)
        let size = CGSize(width: width, height: height)
        self.init(image: name, width: width, height: height, faces: faces.map { FaceRecord($0, features: features, imageSize: size) })
    }
}
