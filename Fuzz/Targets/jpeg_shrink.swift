// libFuzzer target: JPEG bytes through fast detection's shrink-on-load readers, the Swift code that
// parses a JPEG's entropy-coded data itself (sessions 15-16): JPEGSparseDecoder (the "exact sparse
// input": the detector's letterbox of a baseline JPEG's full decode from the blocks it reads) and
// JPEGDCDecoder (a decode at 1/8 from the DC terms alone). The `image-*` targets never reach them:
// Image(data:) decodes at full scale, and only FaceDetector.analyzedFaces(decoding:) (`visage detect`,
// `POST /v1/faces`) calls the sparse decoder.
//
// Per input, as analyzedFaces(decoding:) does before the network (which this target does not run):
// the header (ImageFileInfo), the pixel limit, then the short-range detector's 128×128 letterbox under
// the file's orientation (DetectionWindow.letterbox's transform, written out here) through
// JPEGSparseDecoder.warpAffine with OpenCV's fixed-point sampling. Unlike the CLI, for any declared
// size, not only those shrunk to 1/4 or 1/8, so small seeds reach it. Then the picture's corners and
// centre through JPEGSparseDecoder.pixels, and a 1/8 decode (minimumDimension 1) through JPEGCodec,
// which reads the DC terms where JPEGDCDecoder can.
//
// Oracles (a trap is a finding), for pictures of at most 4 MP: what the sparse decoder reads, libjpeg's
// full decode (JPEGCodec.decode, dcOnly false) must read too: fast detection must give the error of a
// full decode (eaedcaf). A 1/8 decode through the DC terms must likewise not succeed where libjpeg's own
// 1/8 decode throws. With VISAGE_FUZZ_SAME_PIXELS=1 the sparse samples must also be the full decode's, bit
// for bit. That holds for files an encoder wrote, not for garbage whose dequantised coefficients leave 16
// bits: libjpeg-turbo's SIMD IDCT multiplies and packs them in 16-bit lanes, its C IDCT wraps its
// outputs through a 1024-entry table, and the two differ from each other there (FUZZING.md, finding 19),
// so a mutated scan trips it within seconds.
import Foundation
import VisageGeometry
import VisageImage

/// Pictures up to this many pixels are also decoded whole for the oracles.
let oracleLimit = 4_000_000
let tensorSide = 128
/// Whether the sparse samples are held to the full decode's (see above).
let samePixels = ProcessInfo.processInfo.environment["VISAGE_FUZZ_SAME_PIXELS"] == "1"

/// DetectionWindow.letterbox(width:height:).warpTransform(tensorSize:rawWidth:rawHeight:orientation:).
func letterboxTransform(rawWidth: Int, rawHeight: Int, orientation: ImageOrientation) -> PixelTransform {
    let upright = orientation.uprightSize(rawWidth: rawWidth, rawHeight: rawHeight)
    let side = Double(max(upright.width, upright.height))
    let originX = (Double(upright.width) - side) / 2, originY = (Double(upright.height) - side) / 2
    let scale = side / Double(tensorSide)
    func raw(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let u = (originX + x * scale + 0.5) / Double(upright.width)
        let v = (originY + y * scale + 0.5) / Double(upright.height)
        let point = orientation.rawUnitPoint(fromUpright: u, v)
        return (point.x * Double(rawWidth) - 0.5, point.y * Double(rawHeight) - 0.5)
    }
    let origin = raw(0, 0), xStep = raw(1, 0), yStep = raw(0, 1)
    return PixelTransform(
        a: xStep.x - origin.x, b: yStep.x - origin.x, c: xStep.y - origin.y, d: yStep.y - origin.y, tx: origin.x, ty: origin.y)
}

func fullDecode(_ bytes: UnsafeRawBufferPointer) -> Result<Image, ImageError> {
    Result { () throws(ImageError) in
        try JPEGCodec.decode(bytes, options: ImageDecodingOptions(applyOrientation: false, pixelLimit: oracleLimit), dcOnly: false)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGShrink(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: pointer, count: count)
    guard let info = try? ImageFileInfo.read(data: data), info.format == .jpeg,
          info.width * info.height <= ImageDecodingOptions.defaultPixelLimit
    else { return 0 }
    let small = info.width * info.height <= oracleLimit
    data.withUnsafeBytes { bytes in
        var full: Result<Image, ImageError>?
        func reference() -> Result<Image, ImageError> {
            if let full { return full }
            let decoded = fullDecode(bytes)
            full = decoded
            return decoded
        }
        // The detector's letterbox, as DetectorRunner.detect(encodedJPEG:…) writes it.
        let upright = info.uprightSize
        if min(upright.width, upright.height) >= 8 {
            let transform = letterboxTransform(rawWidth: info.width, rawHeight: info.height, orientation: info.orientation)
            var tensor = [Float](repeating: .nan, count: tensorSide * tensorSide * 3)
            let read = tensor.withUnsafeMutableBufferPointer { out in
                JPEGSparseDecoder.warpAffine(
                    bytes, into: out, width: tensorSide, height: tensorSide, transform: transform, valueRange: -1 ... 1, asOpenCV: true)
            }
            if read, small {
                switch reference() {
                case .failure(let error):
                    fatalError("the sparse letterbox read a file the full decode refuses: \(error)")
                case .success(let image) where samePixels:
                    var expected = [Float](repeating: .nan, count: tensor.count)
                    expected.withUnsafeMutableBufferPointer { out in
                        image.warpAffineFixedPoint(
                            into: out, width: tensorSide, height: tensorSide, transform: transform, valueRange: -1 ... 1, border: .zero)
                    }
                    if expected.map(\.bitPattern) != tensor.map(\.bitPattern) {
                        fatalError("the sparse letterbox differs from the full decode's")
                    }
                case .success: break
                }
            }
        }
        // Corners, edges and centre.
        func picks(_ limit: Int) -> [Int] { Array(Set([0, limit / 2, limit - 1].filter { $0 >= 0 })).sorted() }
        let rows = picks(info.height), columns = picks(info.width)
        if let sparse = JPEGSparseDecoder.pixels(bytes, rows: rows, columns: columns), small {
            switch reference() {
            case .failure(let error):
                fatalError("the sparse decoder read pixels of a file the full decode refuses: \(error)")
            case .success(let image) where samePixels:
                if sparse != SparsePixels(sampling: image, rows: rows, columns: columns) {
                    fatalError("the sparse decoder's pixels differ from the full decode's")
                }
            case .success: break
            }
        }
        // A 1/8 decode, from the DC terms where JPEGDCDecoder reads the file.
        var eighth = ImageDecodingOptions(applyOrientation: false)
        eighth.minimumDimension = 1
        let dc = Result { () throws(ImageError) in try JPEGCodec.decode(bytes, options: eighth, dcOnly: true) }
        if case .success(let image) = dc, small {
            switch Result(catching: { () throws(ImageError) in try JPEGCodec.decode(bytes, options: eighth, dcOnly: false) }) {
            case .failure(let error):
                fatalError("the DC decoder read a file libjpeg's 1/8 decode refuses: \(error)")
            case .success(let reference):
                if (reference.width, reference.height, reference.pixelFormat) != (image.width, image.height, image.pixelFormat) {
                    fatalError("the DC decoder's picture is not libjpeg's 1/8 size")
                }
            }
        }
    }
    return 0
}
