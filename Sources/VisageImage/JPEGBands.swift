import Dispatch
import Foundation

/// Decoding a JPEG's rows in bands at once, one per core, for files whose entropy-coded data has
/// restart markers (a DRI segment: many cameras and phones write them; libjpeg, Pillow and most web
/// encoders do not by default).
///
/// Huffman decoding is serial within a restart interval but starts afresh at each marker, so a band
/// of rows that begins at a marker can be decoded by a decompressor of its own: the file's headers with
/// the frame height cut to the band, then the file's data from that marker on. The first band is the
/// file itself, read only up to the second band's first row. A band starts at an interval that begins a
/// row of MCUs and whose number is a multiple of 8, so the band's first marker is RST0, as libjpeg
/// expects of a fresh scan. Bands are used only where rows are independent across MCU rows: when no
/// component is upsampled vertically with libjpeg's smooth (context) filter. A 4:2:0 file decoded at
/// 1/2, 1/4 or 1/8 qualifies (its chroma is IDCT-scaled, never upsampled); at full scale it does not.
/// The rows are then bit-identical to one decompressor's. Anything unexpected (another marker inside
/// the data, a warning from any band, an error) gives up, and the caller decodes on one thread, which
/// reports what the file's faults are.
///
/// This lowers the wall time of one decode, not its CPU time: the bands do the same work, side by side.
package enum JPEGBands {
    /// Below this much entropy-coded data a second thread costs more than it saves.
    static let minimumEntropyBytes = 128 * 1024

    /// A band after the first: its first stored pixel row and where its entropy-coded data starts (just
    /// past the restart marker that begins it).
    package struct Split: Equatable, Sendable {
        package var row: Int
        package var dataOffset: Int
    }

    /// The frame's layout as the bands need it.
    package struct Layout: Sendable {
        package var mcusPerRow: Int
        package var mcuRows: Int
        package var mcuHeight: Int
        package var restartInterval: Int
    }

    package static func layout(of markers: JPEGMarkers) -> Layout? {
        guard markers.isSequentialHuffman, markers.restartInterval > 0, markers.components == 1 || markers.components == 3,
              markers.scanComponents == markers.components, markers.scanDataOffset > 0
        else { return nil }
        // One component is a non-interleaved scan: its MCU is one 8×8 block.
        let (mcuWidth, mcuHeight) = markers.components == 1 ? (8, 8) : (8 * markers.maxHorizontalSampling, 8 * markers.maxVerticalSampling)
        return Layout(
            mcusPerRow: (markers.width + mcuWidth - 1) / mcuWidth, mcuRows: (markers.height + mcuHeight - 1) / mcuHeight,
            mcuHeight: mcuHeight, restartInterval: markers.restartInterval)
    }

    /// Where bands 2… `count` start, each at the first qualifying restart marker past an equal share of the
    /// entropy-coded bytes; nil when the file has no restart markers, too little data, or anything but
    /// restart markers before the split points.
    package static func splits(_ bytes: UnsafeRawBufferPointer, markers: JPEGMarkers, count: Int) -> [Split]? {
        guard count > 1, let layout = layout(of: markers) else { return nil }
        let start = markers.scanDataOffset, end = bytes.count
        guard end - start >= minimumEntropyBytes, let base = bytes.baseAddress else { return nil }
        let totalMCUs = layout.mcusPerRow * layout.mcuRows
        var splits: [Split] = []
        var target = start + (end - start) / count
        var seen = 0  // restart markers so far; marker n begins interval n
        var offset = start
        while offset < end - 1 {
            guard let found = memchr(base + offset, 0xFF, end - 1 - offset) else { return nil }
            let position = base.distance(to: UnsafeRawPointer(found))
            let marker = bytes[position + 1]
            switch marker {
            case 0x00:
                offset = position + 2  // a stuffed 0xFF data byte
            case 0xFF:
                offset = position + 1  // a fill byte before a marker
            case 0xD0...0xD7:
                seen += 1
                // Marker n is RST((n − 1) mod 8): a lost or extra marker would shift every row after it.
                guard Int(marker - 0xD0) == (seen - 1) % 8 else { return nil }
                offset = position + 2
                let firstMCU = seen * layout.restartInterval
                guard firstMCU < totalMCUs else { return nil }
                if position >= target, seen % 8 == 0, firstMCU % layout.mcusPerRow == 0 {
                    splits.append(Split(row: firstMCU / layout.mcusPerRow * layout.mcuHeight, dataOffset: offset))
                    if splits.count == count - 1 { return splits }
                    target = start + (end - start) * (splits.count + 1) / count
                }
            default:
                return nil  // the end of the scan, or a marker bands cannot cross
            }
        }
        return nil
    }

    /// The file's headers up to its scan data, with the frame height set to `height`.
    package static func header(_ bytes: UnsafeRawBufferPointer, markers: JPEGMarkers, height: Int) -> [UInt8] {
        var header = [UInt8](bytes[0 ..< markers.scanDataOffset])
        // The frame header: FF Cn, length (2), precision (1), height (2), width (2).
        header[markers.frameOffset + 5] = UInt8(height >> 8)
        header[markers.frameOffset + 6] = UInt8(height & 0xFF)
        return header
    }

    /// Decodes rows of the picture started on `first` (at `scaleNumerator`/8, `size` output pixels) into
    /// `destination`, band by band at once: `first` reads the rows above the first split, a new decoder
    /// per split the rows from it on. False when any band fails or warns: the caller then decodes on one
    /// thread, from a decoder of its own, whatever has been written here.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, markers: JPEGMarkers, splits: [Split], first: JPEGDecoder, scaleNumerator: Int,
        size: (width: Int, height: Int), into destination: UnsafeMutableRawPointer, bytesPerRow: Int, pixelLimit: Int
    ) -> Bool {
        // Band edges fall on MCU rows (multiples of 8 stored rows), whose scaled row is exact.
        let starts = [0] + splits.map { $0.row * scaleNumerator / 8 } + [size.height]
        let headers = splits.enumerated().map { index, split in
            header(bytes, markers: markers, height: (index + 1 < splits.count ? splits[index + 1].row : markers.height) - split.row)
        }
        let done = UnsafeMutableBufferPointer<Bool>.allocate(capacity: splits.count + 1)
        done.initialize(repeating: false)
        defer { done.deallocate() }
        let shared = Unchecked((bytes, first, destination, done, headers))
        DispatchQueue.concurrentPerform(iterations: splits.count + 1) { band in
            let (bytes, first, destination, done, headers) = shared.value
            let rows = starts[band] ..< starts[band + 1]
            let target = destination + rows.lowerBound * bytesPerRow
            do {
                if band == 0 {
                    try first.readRows(into: target, bytesPerRow: bytesPerRow, count: rows.count)
                    done[band] = first.warningCount == 0
                    return
                }
                // A band before the last stops at the next band's marker, and an EOI ends it there.
                let last = band == splits.count
                let end = last ? bytes.count : splits[band].dataOffset - 2
                let body = UnsafeRawBufferPointer(rebasing: bytes[splits[band - 1].dataOffset ..< end])
                done[band] = try headers[band - 1].withUnsafeBytes { prefix in
                    let decoder = try JPEGDecoder(prefix: prefix, body: body, endsWithEOI: !last, pixelLimit: pixelLimit)
                    let output = try decoder.start(scaleNumerator: scaleNumerator)
                    guard output == (size.width, rows.count), !decoder.rowsNeedContext else { return false }
                    try decoder.readRows(into: target, bytesPerRow: bytesPerRow, count: rows.count)
                    return decoder.warningCount == 0
                }
            } catch {
                done[band] = false
            }
        }
        return done.allSatisfy { $0 }
    }
}
