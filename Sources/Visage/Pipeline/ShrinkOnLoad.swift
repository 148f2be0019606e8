import Foundation
import VisageImage

/// Decoding only what a detection needs (libvips' "shrink on load").
extension FaceDetector {
    /// Twice the short-range detector's input side: a reduced picture's longer side is at least this long.
    package static let shrinkOnLoadMinimum = 2 * DetectorVariant.shortRange.inputSize

    /// The faces of an encoded image and its upright size, decoding only what the request needs.
    ///
    /// Fast-mode detection of a baseline JPEG the detector needs at 1/4 or 1/8 of its size (a longer side
    /// of about 1024 pixels or more; no rotation search) never makes the full decode, yet gets its faces
    /// exactly: the detector's 128×128 input is the full decode's letterbox bit for bit, from the pixels its
    /// warp reads alone (``JPEGSparseDecoder``: every block's Huffman data is read, the blocks holding those
    /// pixels decoded whole; on a noisy 12-megapixel photo, with detection, about 0.24 of a full decode's time).
    /// Features that need the mesh (landmarks, contours, classification, mesh, quality) decode the whole image by default;
    /// with `meshFromReducedDecode` they too skip it there: per face, only the part of the JPEG the mesh
    /// region's warp reaches is decoded, at full resolution (``RegionSource``), so meshes are exact as well.
    ///
    /// Other JPEGs (progressive, 4:4:0, …) and smaller ones decode at the smallest of libjpeg's halving scales
    /// (1/2, 1/4, 1/8) that still gives the short-range detector at least twice its 128-pixel input on the
    /// longer side (at 1/8 from the blocks' DC terms when ``JPEGDCDecoder`` reads the file), and report the
    /// faces in the full picture: boxes within about 1 % of a full decode's; a box found there moves the
    /// mesh by a median 0.6–3.6 px on the test photos. Other formats and accurate mode decode the whole image.
    ///
    /// `decodeThreads` is ``ImageDecodingOptions/threads`` for the decode: a JPEG with restart markers then
    /// decodes in that many bands at once (for one image at a time; many images are better run side by side).
    /// `pixelLimit` bounds the pixels the header may declare. `decoded` is called where decoding ends and
    /// detection starts, where the two are separate steps (`visage serve` times its stages there).
    package func analyzedFaces(
        decoding data: Data, features: FaceFeatures, maxFaces: Int? = nil, meshFromReducedDecode: Bool = false,
        decodeThreads: Int = 1, pixelLimit: Int = ImageDecodingOptions.defaultPixelLimit, decoded: () throws -> Void = {}
    ) throws -> (faces: [AnalyzedFace], width: Int, height: Int) {
        var stored = ImageDecodingOptions(applyOrientation: false, pixelLimit: pixelLimit)
        stored.threads = decodeThreads
        let mesh = features.needsMesh, quality = features.contains(.quality)
        if options.performanceMode == .fast, meshFromReducedDecode || !(mesh || quality) {
            let info = try ImageFileInfo.read(data: data)
            if info.format == .jpeg {
                // The full decode's faces exactly: the detector's input is the full decode's, from the pixels
                // its warp reads alone (pictures shrunk to 1/4 or 1/8; smaller ones keep libjpeg's 1/2
                // decode). JPEGs the sparse decoder does not read fall back to the reduced decode below.
                try checkPixelLimit(width: info.width, height: info.height, limit: stored.pixelLimit)
                if JPEGCodec.halvingScaleNumerator(width: info.width, height: info.height, atLeast: Self.shrinkOnLoadMinimum) <= 2,
                   let found = try detectedFaces(
                    encodedJPEG: data, storedWidth: info.width, storedHeight: info.height, orientation: info.orientation, maxFaces: maxFaces) {
                    let upright = info.uprightSize
                    return (try analyzed(found, from: RegionSource(encoded: data, info: info), mesh: mesh, captureQuality: quality), upright.width, upright.height)
                }
                var reduced = stored
                reduced.minimumDimension = Self.shrinkOnLoadMinimum
                let image = try Image(data: data, options: reduced)
                try decoded()
                let upright = info.uprightSize
                let reducedFrom = ReducedDecode(image, orientation: info.orientation, uprightWidth: upright.width, uprightHeight: upright.height)
                let faces = try detectedFaces(in: image, maxFaces: maxFaces, reducedFrom: reducedFrom)
                    .map { $0.reported(width: upright.width, height: upright.height) }
                // A picture too small to shrink is already whole: its regions need no second decode.
                let source = image.width == info.width ? RegionSource(image) : RegionSource(encoded: data, info: info)
                return (try analyzed(faces, from: source, mesh: mesh, captureQuality: quality), upright.width, upright.height)
            }
        }
        let image = try Image(data: data, options: stored)
        try decoded()
        let faces = try analyzedFaces(in: image, mesh: mesh, captureQuality: quality, maxFaces: maxFaces)
        let upright = image.orientation.uprightSize(rawWidth: image.width, rawHeight: image.height)
        return (faces, upright.width, upright.height)
    }
}

/// A picture decoded at 1/8 of its size, whose pixels are then its 8×8 blocks' means (a JPEG's DC terms,
/// from ``JPEGDCDecoder`` or libjpeg's 1×1 IDCT): the detector samples it at the whole picture's points
/// (``Image/sampleBlockMeans(into:width:height:transform:fullWidth:fullHeight:factor:valueRange:)``), so its
/// input stands closer to a full decode's. Boxes against a full decode's, largest edge difference as a
/// fraction of the picture: on `benchmark-batch.py`'s 17 12-megapixel photos with faces, mean 0.64 % and at
/// most 1.38 % with a bilinear warp of the reduced picture as a picture of its own, 0.36 % and 0.75 % this
/// way; on 36 generated ones (nine sources upscaled, noise σ 0, 4 and 8) mean 1.60 % → 0.91 %, at most
/// 6.2 % → 2.6 %.
///
/// At 1/2 and 1/4, libjpeg's scaled IDCTs give more than block means, and the warp's offset is 0.5 and
/// 1.5 whole-picture pixels: those decodes are warped as pictures of their own.
package struct ReducedDecode: Sendable, Hashable {
    /// The whole picture's upright size.
    package var width: Int
    package var height: Int
    /// The reduced picture is ⌈whole / factor⌉ on each side.
    package var factor: Int

    /// The reduction of `image` (stored pixels, `orientation`) from a picture of the upright size given,
    /// when it is the 1/8 DCT scale; nil otherwise.
    package init?(_ image: Image, orientation: ImageOrientation, uprightWidth: Int, uprightHeight: Int) {
        let stored = orientation.uprightSize(rawWidth: uprightWidth, rawHeight: uprightHeight)
        let factor = 8
        guard (stored.width + factor - 1) / factor == image.width, (stored.height + factor - 1) / factor == image.height,
              stored.width > image.width
        else { return nil }
        (width, height, self.factor) = (uprightWidth, uprightHeight, factor)
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
