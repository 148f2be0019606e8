import Foundation
import VisageImage
import VisageVideo

/// Builds y4m streams, raw streams and folders of images in the test, with every pixel known.
enum StreamMaking {
    /// A temporary file holding `data`, removed by the caller.
    static func file(_ data: Data, extension ext: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-video-\(UUID().uuidString).\(ext)")
        try data.write(to: url)
        return url
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Planes of one y4m frame where luma and chroma follow simple formulas of the position and `frame`.
    static func planes(width: Int, height: Int, chromaWidth: Int, chromaHeight: Int, frame: Int, alpha: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes.append(luma(x, y, frame)) } }
        for y in 0..<chromaHeight { for x in 0..<chromaWidth { bytes.append(cb(x, y, frame)) } }
        for y in 0..<chromaHeight { for x in 0..<chromaWidth { bytes.append(cr(x, y, frame)) } }
        if alpha { bytes += [UInt8](repeating: 255, count: width * height) }
        return bytes
    }

    static func luma(_ x: Int, _ y: Int, _ frame: Int) -> UInt8 { UInt8(16 + (x * 23 + y * 11 + frame * 37) % 220) }
    static func cb(_ x: Int, _ y: Int, _ frame: Int) -> UInt8 { UInt8(30 + (x * 41 + y * 7 + frame * 13) % 200) }
    static func cr(_ x: Int, _ y: Int, _ frame: Int) -> UInt8 { UInt8(25 + (x * 5 + y * 53 + frame * 29) % 205) }

    /// BT.601 in floating point: the reference the fixed-point conversion is checked against.
    static func referenceRGB(y: UInt8, u: UInt8, v: UInt8, fullRange: Bool) -> [Double] {
        let (Y, U, V) = (Double(y), Double(u) - 128, Double(v) - 128)
        let rgb = fullRange
            ? [Y + 1.402 * V, Y - 0.344136 * U - 0.714136 * V, Y + 1.772 * U]
            : [1.164383 * (Y - 16) + 1.596027 * V, 1.164383 * (Y - 16) - 0.391762 * U - 0.812968 * V, 1.164383 * (Y - 16) + 2.017232 * U]
        return rgb.map { min(max($0, 0), 255) }
    }

    /// A y4m stream of `frames` frames (`header` after "YUV4MPEG2 ").
    static func y4m(header: String, width: Int, height: Int, chroma: (Int, Int)?, frames: Int, alpha: Bool = false) -> Data {
        var data = Data("YUV4MPEG2 \(header)\n".utf8)
        for frame in 0..<frames {
            data += Data("FRAME\n".utf8)
            data += planes(width: width, height: height, chromaWidth: chroma?.0 ?? 0, chromaHeight: chroma?.1 ?? 0, frame: frame, alpha: alpha)
        }
        return data
    }

    /// Two 16×8 4:4:4 frames of a smooth horizontal ramp (luma 16 + 12x, grey chroma), with the `A`
    /// pixel aspect `aspect` ("A2:1"): stretching it keeps interpolated columns close to the stored ones.
    static func rampY4M(aspect: String) -> Data {
        var data = Data("YUV4MPEG2 W16 H8 F25:1 \(aspect) C444\n".utf8)
        for _ in 0..<2 {
            data += Data("FRAME\n".utf8)
            data += Data((0..<8).flatMap { _ in (0..<16).map { UInt8(16 + 12 * $0) } }) + Data(repeating: 128, count: 2 * 16 * 8)
        }
        return data
    }

    /// A raw RGB24 frame whose pixels encode their position and the frame number.
    static func rgbFrame(width: Int, height: Int, frame: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += [UInt8(x % 256), UInt8(y % 256), UInt8(frame % 256)] } }
        return bytes
    }

    /// Every frame of a source, stopping at the first error, which is returned beside them.
    static func drain(_ source: any FrameSource) -> (frames: [VideoFrame], error: VideoError?) {
        var frames: [VideoFrame] = []
        do throws(VideoError) {
            while let frame = try source.nextFrame() { frames.append(frame) }
        } catch {
            return (frames, error)
        }
        return (frames, nil)
    }
}
