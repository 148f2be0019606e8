import CImageCodecs
import Foundation

/// A system library that decodes a format, loaded with `dlopen` the first time a file needs it.
///
/// The build needs none of their headers; a machine without one still decodes every other format,
/// and a file that needs it fails with ``ImageError/codecUnavailable(_:library:package:reason:)``.
package enum ImageCodecLibrary: CaseIterable, Sendable {
    case webp, heif, avif, tiff

    /// The sonames tried, the Debian/Ubuntu package that installs them.
    package var soname: String {
        switch self {
        case .webp: "libwebp.so.7"
        case .heif: "libheif.so.1"
        case .avif: "libavif.so.15"
        case .tiff: "libtiff.so.6"
        }
    }

    package var package: String {
        switch self {
        case .webp: "libwebp7"
        case .heif: "libheif1"
        case .avif: "libavif15"
        case .tiff: "libtiff6"
        }
    }

    package var format: ImageFileFormat {
        switch self {
        case .webp: .webp
        case .heif: .heif
        case .avif: .avif
        case .tiff: .tiff
        }
    }

    private var raw: vcodec_library {
        switch self {
        case .webp: vwebp_library().pointee
        case .heif: vheif_library().pointee
        case .avif: vavif_library().pointee
        case .tiff: vtiff_library().pointee
        }
    }

    /// The loaded version, or nil with the reason the library is unusable.
    ///
    /// `VISAGE_DISABLE_CODECS=heif,webp` (format names, comma-separated) treats those libraries as
    /// missing: the way to see, and test, what a machine without them does.
    package var status: (version: String?, problem: String?) {
        if Self.disabled.contains(format.rawValue) { return (nil, "disabled by VISAGE_DISABLE_CODECS") }
        let library = raw
        let version = Self.string(library.version)
        return library.loaded != 0 ? (version, nil) : (version.isEmpty ? nil : version, Self.string(library.error))
    }

    /// Loads the library or throws the error that names the package to install.
    package func require() throws(ImageError) {
        if let problem = status.problem {
            throw .codecUnavailable(format, library: soname, package: package, reason: problem)
        }
    }

    private static let disabled: Set<String> = {
        guard let value = getenv("VISAGE_DISABLE_CODECS") else { return [] }
        return Set(String(cString: value).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }()

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension vcodec_status {
    var text: String { ImageCodecLibrary.string(message) }
}

/// How Visage decodes a format on this machine: built in, or through a system library that is or is not installed.
public struct ImageCodecAvailability: Sendable, Hashable, Codable {
    public var format: ImageFileFormat
    /// True when files of this format can be decoded here.
    public var isAvailable: Bool
    /// "built in" for formats Visage decodes itself or links; otherwise the soname loaded at run time.
    public var decoder: String
    /// The library's version when it loaded.
    public var version: String?
    /// The Debian/Ubuntu package that provides the library, for formats decoded through one.
    public var package: String?
    /// Why the library cannot be used, when it cannot.
    public var problem: String?

    /// Every format, in ``ImageFileFormat`` order; loads each optional library once to find out.
    public static var all: [ImageCodecAvailability] { ImageFileFormat.allCases.map(\.availability) }
}

extension ImageFileFormat {
    package var library: ImageCodecLibrary? { ImageCodecLibrary.allCases.first { $0.format == self } }

    /// Whether this machine can decode the format, and through what.
    public var availability: ImageCodecAvailability {
        guard let library else {
            let decoder = switch self {
            case .jpeg: "libjpeg (linked)"
            case .png: "libpng (linked)"
            default: "built in"
            }
            return ImageCodecAvailability(format: self, isAvailable: true, decoder: decoder)
        }
        let status = library.status
        return ImageCodecAvailability(
            format: self, isAvailable: status.problem == nil, decoder: library.soname, version: status.version,
            package: library.package, problem: status.problem)
    }
}
