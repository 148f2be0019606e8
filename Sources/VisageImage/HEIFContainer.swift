import VisageGeometry

/// The few boxes of a HEIF file (ISO/IEC 23008-12) Visage reads itself: the primary item (`pitm`) and
/// its properties (`ipco` through `ipma`): size (`ispe`), rotation (`irot`), mirroring (`imir`) and
/// cropping (`clap`). Every box is bounds-checked; the picture data is libheif's business.
struct HEIFContainer {
    /// The coded size (`ispe`), which libheif decodes when told to ignore the transformations.
    var codedWidth: Int
    var codedHeight: Int
    /// The clean aperture inside the coded picture (all of it without `clap`): the stored picture
    /// Visage reports, before rotation and mirroring.
    var crop: (x: Int, y: Int, width: Int, height: Int)
    var orientation: ImageOrientation

    var width: Int { crop.width }
    var height: Int { crop.height }

    private struct Box {
        var type: String
        /// The payload, after the size, type and (for full boxes, read by the caller) version and flags.
        var body: Range<Int>
    }

    init(_ bytes: UnsafeRawBufferPointer, format: ImageFileFormat = .heif) throws(ImageError) {
        let reader = ByteReader(bytes, format: format, littleEndian: false)
        let top = try Self.boxes(reader, in: 0..<bytes.count)
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw .corrupt(format, reason: "no 'meta' box") }
        let metaBoxes = try Self.boxes(reader, in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        guard let pitm = metaBoxes.first(where: { $0.type == "pitm" }) else { throw .corrupt(format, reason: "no primary item ('pitm')") }
        let primary = try reader.u8(at: pitm.body.lowerBound) == 0 ? try reader.u16(at: pitm.body.lowerBound + 4) : try reader.u32(at: pitm.body.lowerBound + 4)
        guard let iprp = metaBoxes.first(where: { $0.type == "iprp" }) else { throw .corrupt(format, reason: "no item properties ('iprp')") }
        let iprpBoxes = try Self.boxes(reader, in: iprp.body)
        guard let ipco = iprpBoxes.first(where: { $0.type == "ipco" }) else { throw .corrupt(format, reason: "no 'ipco' box") }
        let properties = try Self.boxes(reader, in: ipco.body)

        var indices: [Int] = []
        for ipma in iprpBoxes where ipma.type == "ipma" {
            let version = try reader.u8(at: ipma.body.lowerBound)
            let wideIndices = try reader.u8(at: ipma.body.lowerBound + 3) & 1 != 0
            let count = try reader.u32(at: ipma.body.lowerBound + 4)
            var offset = ipma.body.lowerBound + 8
            for _ in 0..<count {
                guard offset < ipma.body.upperBound else { throw .corrupt(format, reason: "'ipma' lists more entries than it holds") }
                let item = version < 1 ? try reader.u16(at: offset) : try reader.u32(at: offset)
                offset += version < 1 ? 2 : 4
                let associations = try reader.u8(at: offset)
                offset += 1
                for _ in 0..<associations {
                    let index = wideIndices ? try reader.u16(at: offset) & 0x7FFF : try reader.u8(at: offset) & 0x7F
                    offset += wideIndices ? 2 : 1
                    if item == primary { indices.append(index) }
                }
            }
        }
        var size: (Int, Int)?
        var turns = 0
        var mirror: Int?
        var clap: [Int]?
        for index in indices where index > 0 && index <= properties.count {
            let property = properties[index - 1]
            switch property.type {
            case "ispe": size = (try reader.u32(at: property.body.lowerBound + 4), try reader.u32(at: property.body.lowerBound + 8))
            case "irot": turns = try reader.u8(at: property.body.lowerBound) & 3
            case "imir": mirror = try reader.u8(at: property.body.lowerBound) & 1
            case "clap":
                var values: [Int] = []
                for field in 0..<8 { values.append(Int(Int32(truncatingIfNeeded: try reader.u32(at: property.body.lowerBound + 4 * field)))) }
                clap = values
            default: break
            }
        }
        guard let size else { throw .corrupt(format, reason: "the primary item has no size ('ispe')") }
        guard size.0 > 0, size.1 > 0 else { throw .corrupt(format, reason: "size \(size.0)×\(size.1) must be positive") }
        codedWidth = size.0
        codedHeight = size.1
        orientation = ImageOrientation(quarterTurnsCounterClockwise: turns, mirror: mirror)
        crop = (0, 0, size.0, size.1)
        if let clap { crop = try Self.cleanAperture(clap, width: size.0, height: size.1, format: format) }
    }

    /// The `clap` rectangle in whole pixels, as libheif rounds it: width and height to nearest, the
    /// centre at `offset + (size − 1) / 2`, left and top rounded down.
    private static func cleanAperture(_ v: [Int], width: Int, height: Int, format: ImageFileFormat) throws(ImageError) -> (Int, Int, Int, Int) {
        guard v[1] > 0, v[3] > 0, v[5] > 0, v[7] > 0, v[0] > 0, v[2] > 0 else {
            throw .corrupt(format, reason: "clean aperture \(v) has a zero or negative term")
        }
        let apertureWidth = Double(v[0]) / Double(v[1]), apertureHeight = Double(v[2]) / Double(v[3])
        let left = Double(v[4]) / Double(v[5]) + Double(width - 1) / 2 - (apertureWidth - 1) / 2
        let top = Double(v[6]) / Double(v[7]) + Double(height - 1) / 2 - (apertureHeight - 1) / 2
        let rect = (Int(left.rounded(.down)), Int(top.rounded(.down)), Int(apertureWidth.rounded()), Int(apertureHeight.rounded()))
        guard rect.0 >= 0, rect.1 >= 0, rect.2 >= 1, rect.3 >= 1, rect.0 + rect.2 <= width, rect.1 + rect.3 <= height else {
            throw .corrupt(format, reason: "clean aperture \(rect.2)×\(rect.3) at (\(rect.0), \(rect.1)) lies outside the \(width)×\(height) image")
        }
        return rect
    }

    /// The boxes laid end to end in `range`; a box that runs past it is a truncation.
    private static func boxes(_ reader: ByteReader, in range: Range<Int>) throws(ImageError) -> [Box] {
        let format = reader.format
        var result: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = try reader.u32(at: offset)
            let type = String(decoding: reader.bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                let large = try reader.u64(at: offset + 8)
                guard large <= UInt64(Int.max) else { throw .corrupt(format, reason: "box '\(type)' claims \(large) bytes") }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header else { throw .corrupt(format, reason: "box '\(type)' of \(size) bytes at byte \(offset)") }
            guard size <= range.upperBound - offset else {
                throw .truncated(format, reason: "box '\(type)' of \(size) bytes at byte \(offset) runs past the end")
            }
            result.append(Box(type: type, body: (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }
}
