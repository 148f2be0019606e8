import VisageGeometry

/// Reads the orientation tag (0x0112) from IFD0 of an EXIF TIFF structure, either byte order.
///
/// Every offset is bounds-checked. A missing, malformed or out-of-range tag yields `.up`: a broken EXIF
/// block must never make an otherwise valid image fail to load.
package enum EXIFOrientation {
    package static func read(tiff: UnsafeRawBufferPointer) -> ImageOrientation {
        guard tiff.count >= 8 else { return .up }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return .up
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(bigEndian ? at : at + 2), let low = u16(bigEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entryCount = u16(ifd) else { return .up }
        for entry in 0..<entryCount {
            let at = ifd + 2 + 12 * entry
            guard let tag = u16(at), let type = u16(at + 2) else { return .up }
            if tag == 0x0112 {
                // SHORT (3) is the type the standard prescribes; LONG (4) appears in the wild.
                let value = type == 4 ? u32(at + 8) : type == 3 ? u16(at + 8) : nil
                return value.flatMap { ImageOrientation(exifValue: $0) } ?? .up
            }
        }
        return .up
    }

    /// The TIFF structure inside a JPEG APP1 payload, which starts "Exif\0\0"; nil for other APP1 (XMP).
    package static func tiff(inAPP1 payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        guard payload.count > 6, payload.prefix(6).elementsEqual(signature) else { return nil }
        return UnsafeRawBufferPointer(rebasing: payload[(payload.startIndex + 6)...])
    }
}
