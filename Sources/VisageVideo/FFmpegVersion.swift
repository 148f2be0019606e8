import Foundation

/// The installed ffmpeg's release, for the options whose spelling changed between releases.
///
/// Read from the first line of `ffmpeg -version` (`ffmpeg version 5.1.9-0+deb12u1 …`). Builds from
/// git (`ffmpeg version N-113…`) and anything unreadable count as recent.
package struct FFmpegVersion: Equatable, Sendable {
    /// Major and minor release; nil when the version line names none.
    package var release: (major: Int, minor: Int)?

    package init(versionLine: some StringProtocol) {
        let words = versionLine.split(separator: " ")
        guard let at = words.firstIndex(of: "version"), at + 1 < words.count else { return }
        let numbers = words[at + 1].prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        if numbers.count >= 2 { release = (numbers[0], numbers[1]) } else if numbers.count == 1 { release = (numbers[0], 0) }
    }

    /// Asks `ffmpeg -version`; a program that does not answer counts as recent.
    package init(_ ffmpeg: ExternalTool) {
        let output = (try? ffmpeg.run(["-hide_banner", "-version"])) ?? Data()
        self.init(versionLine: String(decoding: output.prefix(200), as: UTF8.self).prefix { $0 != "\n" })
    }

    /// Whether this is `major.minor` or later.
    package func isAtLeast(_ major: Int, _ minor: Int) -> Bool {
        guard let release else { return true }
        return release.major > major || (release.major == major && release.minor >= minor)
    }

    /// Every decoded frame to the output once, with its own timestamp: `-fps_mode` since 5.1, whose
    /// `-vsync` spelling is deprecated.
    package var passthroughArguments: [String] {
        isAtLeast(5, 1) ? ["-fps_mode", "passthrough"] : ["-vsync", "passthrough"]
    }

    /// `showinfo` without its per-frame checksums, means and deviations over every pixel, where the
    /// option exists.
    package var showInfoFilter: String {
        isAtLeast(5, 1) ? "showinfo=checksum=0" : "showinfo"
    }

    package static func == (a: Self, b: Self) -> Bool { a.release?.major == b.release?.major && a.release?.minor == b.release?.minor }
}
