/// The container formats Visage decodes. The content decides, never the file name.
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case jpeg
    case png
    /// Netpbm PPM (P3, P6) and PGM (P2, P5).
    case pnm

    /// Recognises a format from the first bytes of a file, nil when none matches.
    package init?(sniffing bytes: UnsafeRawBufferPointer) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "2")...UInt8(ascii: "6")).contains(bytes[1]),
            bytes[1] != UInt8(ascii: "4")
        {
            self = .pnm
        } else {
            return nil
        }
    }

    /// The format of `bytes`, or the typed error for empty data and unknown signatures.
    package init(detecting bytes: UnsafeRawBufferPointer) throws(ImageError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let format = Self(sniffing: bytes) else {
            let digits = Array("0123456789ABCDEF")
            let signature = bytes.prefix(8).map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }
            throw .unsupportedFormat(signature: signature.joined(separator: " "))
        }
        self = format
    }

    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .pnm: "PNM"
        }
    }
}
