import VisageGeometry

/// What Visage reads from JPEG marker segments itself: the frame header, the EXIF orientation and
/// Adobe's APP14 marker (whose presence means CMYK samples are stored inverted).
package struct JPEGMarkers {
    package var width = 0
    package var height = 0
    package var components = 0
    package var precision = 8
    package var isProgressive = false
    package var orientation = ImageOrientation.up
    package var hasAdobeMarker = false
    /// APP14's transform byte: 0 none (RGB/CMYK), 1 YCbCr, 2 YCCK.
    package var adobeTransform: Int?
    /// Where the frame header's marker is, and whether it is a sequential Huffman frame (SOF0 or SOF1).
    package var frameOffset = 0
    package var isSequentialHuffman = false
    /// The largest horizontal and vertical sampling factors of the frame's components.
    package var maxHorizontalSampling = 1
    package var maxVerticalSampling = 1
    /// MCUs per restart interval (DRI) at the first scan; 0 without restart markers.
    package var restartInterval = 0
    /// The first scan's components and where its entropy-coded data begins.
    package var scanComponents = 0
    package var scanDataOffset = 0

    /// Walks the segments up to the first scan, bounds-checking each length.
    package init(_ bytes: UnsafeRawBufferPointer) throws(ImageError) {
        var offset = 2
        var sawFrame = false
        while true {
            guard offset + 2 <= bytes.count else {
                throw .truncated(.jpeg, reason: "the data ends inside the headers, at byte \(bytes.count)")
            }
            guard bytes[offset] == 0xFF else { throw .corrupt(.jpeg, reason: "no marker at byte \(offset)") }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }  // no payload
            if marker == 0xD9 { throw .corrupt(.jpeg, reason: "end of image before any scan") }
            guard offset + 4 <= bytes.count else {
                throw .truncated(.jpeg, reason: "the data ends inside the headers, at byte \(bytes.count)")
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { throw .corrupt(.jpeg, reason: "segment length \(length) at byte \(offset) is below 2") }
            if marker == 0xDA {
                guard sawFrame else { throw .corrupt(.jpeg, reason: "a scan starts before the frame header") }
                // Only for decoding in bands (JPEGBands); libjpeg checks the scan header itself.
                if offset + 4 < bytes.count, offset + 2 + length <= bytes.count {
                    scanComponents = Int(bytes[offset + 4])
                    scanDataOffset = offset + 2 + length
                }
                return
            }
            let start = offset + 4
            let end = offset + 2 + length
            guard end <= bytes.count else {
                throw .truncated(.jpeg, reason: "segment 0xFF\(String(marker, radix: 16, uppercase: true)) of \(length) bytes at byte \(offset) runs past the end")
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard payload.count >= 6 else { throw .corrupt(.jpeg, reason: "frame header of \(payload.count) bytes is too short") }
                precision = Int(payload[payload.startIndex])
                height = Int(payload[payload.startIndex + 1]) << 8 | Int(payload[payload.startIndex + 2])
                width = Int(payload[payload.startIndex + 3]) << 8 | Int(payload[payload.startIndex + 4])
                components = Int(payload[payload.startIndex + 5])
                guard width > 0, height > 0 else {
                    throw .corrupt(.jpeg, reason: "frame size \(width)×\(height) is empty (DNL-defined heights are unsupported)")
                }
                isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                frameOffset = offset
                isSequentialHuffman = (marker == 0xC0 || marker == 0xC1) && payload.count >= 6 + 3 * components
                if isSequentialHuffman {
                    for component in 0 ..< components {
                        let factors = payload[payload.startIndex + 7 + 3 * component]
                        maxHorizontalSampling = max(maxHorizontalSampling, Int(factors >> 4))
                        maxVerticalSampling = max(maxVerticalSampling, Int(factors & 0x0F))
                    }
                }
                sawFrame = true
            case 0xDD:
                // DRI: the restart interval, in MCUs.
                if payload.count >= 2 { restartInterval = Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1]) }
            case 0xE1:
                if orientation == .up, let tiff = EXIFOrientation.tiff(inAPP1: payload) {
                    orientation = EXIFOrientation.read(tiff: tiff)
                }
            case 0xEE:
                if payload.count >= 12, payload.prefix(5).elementsEqual([0x41, 0x64, 0x6F, 0x62, 0x65]) {  // "Adobe"
                    hasAdobeMarker = true
                    adobeTransform = Int(payload[payload.startIndex + 11])
                }
            default:
                break
            }
            offset = end
        }
    }
}
