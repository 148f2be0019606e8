/// The container formats Visage decodes. The content decides, never the file name.
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case jpeg
    case png
    /// Netpbm PPM (P3, P6) and PGM (P2, P5).
    case pnm
    /// HEIF with HEVC pictures (HEIC): every iPhone photo. Through libheif, loaded at run time.
    case heif
    /// HEIF with AV1 pictures. Through libavif, loaded at run time.
    case avif
    /// Lossy, lossless and animated WebP (the first frame). Through libwebp, loaded at run time.
    case webp
    /// TIFF and BigTIFF (the first page). Through libtiff, loaded at run time.
    case tiff
    /// GIF87a and GIF89a (the first frame), decoded natively.
    case gif
    /// Windows bitmaps (1, 4, 8, 16, 24 and 32 bits; uncompressed, bit fields or RLE), decoded natively.
    case bmp

    /// Recognises a format from the first bytes of a file, nil when none matches.
    package init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "2")...UInt8(ascii: "6")).contains(bytes[1]),
            bytes[1] != UInt8(ascii: "4")
        {
            self = .pnm
        } else if let brand = ISOBrand(bytes), let format = brand.imageFormat {
            self = format
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B])
        {
            self = .tiff
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("BM".utf8)),
            bytes.count < 18 || starts([0, 0, 0, 0], at: 6) || BMPCodec.knownHeaderSizes.contains(Int(bytes[14]) | Int(bytes[15]) << 8)
        {
            // "BM" alone is weak: the reserved fields (zero) or a known header size confirm it.
            self = .bmp
        } else {
            return nil
        }
    }

    /// The format of `bytes`, or the typed error for empty data and unknown signatures.
    package init(detecting bytes: UnsafeRawBufferPointer) throws(ImageError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let format = Self(sniffing: bytes) else {
            if let name = UnsupportedFormatName(bytes) { throw .formatNotSupported(name: name.rawValue) }
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
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .gif: "GIF"
        case .bmp: "BMP"
        }
    }

    /// The file name extensions of every format, lower case: what a folder of images is filtered by.
    /// (Decoding still goes by content.)
    public static let fileExtensions: Set<String> = [
        "jpg", "jpeg", "png", "ppm", "pgm", "pnm", "heic", "heif", "hif", "avif", "webp", "tif", "tiff", "gif", "bmp", "dib",
    ]

    /// Every format's ``commonNames`` in one list ("JPEG, PNG, PPM/PGM, …"): what the CLI's help texts and
    /// the service's `unsupported_format` message say Visage reads.
    public static var allCommonNames: String { allCases.map(\.commonNames).joined(separator: ", ") }

    /// The names users know the format by, for messages and `visage info --formats`.
    public var commonNames: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .pnm: "PPM/PGM"
        case .heif: "HEIC/HEIF"
        case .avif: "AVIF"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .gif: "GIF"
        case .bmp: "BMP"
        }
    }
}

/// The major and compatible brands of an ISO base media file (`ftyp`), which name HEIF, AVIF or video.
struct ISOBrand {
    var major: String
    var compatible: [String]

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let brand = { (at: Int) in String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }
        major = brand(8)
        compatible = stride(from: 16, to: min(size, bytes.count) - 3, by: 4).map(brand)
    }

    var brands: [String] { [major] + compatible }

    var imageFormat: ImageFileFormat? {
        // AVIF files list mif1 too, so AV1 brands are looked for first.
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
        if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains($0) }) { return .heif }
        return nil
    }
}

/// Formats recognised by their signature but not decoded, so the error can name them.
enum UnsupportedFormatName: String {
    case jpeg2000 = "JPEG 2000"
    case jpegXL = "JPEG XL"
    case pbm = "PBM (1-bit Netpbm)"
    case pam = "PAM (Netpbm)"
    case photoshop = "Photoshop (PSD)"
    case icon = "Windows icon (ICO/CUR)"
    case qoi = "QOI"
    case openEXR = "OpenEXR"
    case pdf = "PDF"
    case svg = "SVG"
    case mp4 = "MP4/QuickTime video"
    case webm = "Matroska/WebM video"
    case riff = "RIFF (AVI or WAV)"

    init?(_ bytes: UnsafeRawBufferPointer) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
        }
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            self = .jpeg2000
        } else if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            self = .jpegXL
        } else if starts(Array("P1".utf8)) || starts(Array("P4".utf8)) {
            self = .pbm
        } else if starts(Array("P7".utf8)) {
            self = .pam
        } else if starts(Array("8BPS".utf8)) {
            self = .photoshop
        } else if starts([0, 0, 1, 0]) || starts([0, 0, 2, 0]) {
            self = .icon
        } else if starts(Array("qoif".utf8)) {
            self = .qoi
        } else if starts([0x76, 0x2F, 0x31, 0x01]) {
            self = .openEXR
        } else if starts(Array("%PDF".utf8)) {
            self = .pdf
        } else if text.hasPrefix("<svg") || (text.hasPrefix("<?xml") && text.contains("<svg")) {
            self = .svg
        } else if ISOBrand(bytes) != nil {
            self = .mp4
        } else if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            self = .webm
        } else if starts(Array("RIFF".utf8)) {
            self = .riff
        } else {
            return nil
        }
    }
}
