import Foundation
import Synchronization
import Testing
import VisageImage

struct ImageTests {
    @Test func initialiserChecksSizesStrideAndCount() {
        #expect(throws: ImageError.invalidParameter(name: "height", value: "0", rule: "must be positive")) {
            try Image(width: 1, height: 0, pixelFormat: .gray8, pixels: [])
        }
        #expect(throws: ImageError.invalidParameter(name: "bytesPerRow", value: "5", rule: "must be at least width × 3 bytes for rgb8")) {
            try Image(width: 2, height: 1, pixelFormat: .rgb8, pixels: [UInt8](repeating: 0, count: 5), bytesPerRow: 5)
        }
        #expect(throws: ImageError.invalidParameter(name: "pixel count", value: "7", rule: "must be bytesPerRow × height = 8")) {
            try Image(width: 2, height: 1, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 7))
        }
        #expect(throws: ImageError.self) {
            try Image(width: Int.max / 2, height: 4, pixelFormat: .rgba8, pixels: [])
        }
    }

    @Test func zeroCopyWrapsCallerMemoryAndReleasesItOnce() throws {
        let released = Atomic<Int>(0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 1)
        defer { buffer.deallocate() }
        for index in 0..<12 { buffer[index] = UInt8(index) }
        do {
            let image = try Image(
                bytesNoCopy: UnsafeRawBufferPointer(buffer), width: 1, height: 2, pixelFormat: .bgra8, bytesPerRow: 6
            ) { released.add(1, ordering: .relaxed) }
            let copy = image
            #expect(image.withUnsafeBytes { $0.baseAddress } == UnsafeRawPointer(buffer.baseAddress))
            #expect(copy.pixel(x: 0, y: 1) == [6, 7, 8, 9])
            var mutated = copy
            mutated.withUnsafeMutableBytes { $0[0] = 99 }
            // Mutation copied: the caller's buffer and the other copies are untouched.
            #expect(buffer[0] == 0 && image.pixel(x: 0, y: 0)[0] == 0 && mutated.pixel(x: 0, y: 0)[0] == 99)
            #expect(released.load(ordering: .relaxed) == 0)
        }
        #expect(released.load(ordering: .relaxed) == 1)
    }

    @Test func zeroCopyRejectsShortBuffers() throws {
        let released = Atomic<Int>(0)
        let bytes: [UInt8] = [1, 2, 3]
        bytes.withUnsafeBytes { raw in
            #expect(throws: ImageError.invalidParameter(name: "buffer length", value: "3", rule: "must be at least bytesPerRow × height = 4")) {
                try Image(bytesNoCopy: raw, width: 2, height: 2, pixelFormat: .gray8, bytesPerRow: 2) { released.add(1, ordering: .relaxed) }
            }
            return
        }
        #expect(released.load(ordering: .relaxed) == 0)
    }

    @Test func copiesAreIndependent() throws {
        let original = try Image(width: 2, height: 1, pixelFormat: .gray8, pixels: [1, 2])
        var copy = original
        copy.withUnsafeMutableBytes { $0[1] = 9 }
        #expect(original.packedPixels == [1, 2] && copy.packedPixels == [1, 9])
    }

    @Test func grayConversionMatchesPillow() throws {
        let entry = try #require(Fixtures.manifest.conversion.first)
        let source = try Image(width: 37, height: 23, pixelFormat: .rgb8, pixels: [UInt8](Fixtures.data(entry.source)))
        #expect(source.converted(to: .gray8).packedPixels == (try Fixtures.reference(entry)).packedPixels)
    }

    @Test func conversionsRoundTripThroughEveryFormat() throws {
        var generator = SeededGenerator(state: 3)
        let rgba = try randomImage(width: 7, height: 5, format: .rgba8, using: &generator)
        #expect(rgba.converted(to: .bgra8).converted(to: .rgba8).packedPixels == rgba.packedPixels)
        let rgb = rgba.converted(to: .rgb8)
        #expect(rgb.converted(to: .rgba8).converted(to: .rgb8).packedPixels == rgb.packedPixels)
        #expect(rgb.converted(to: .rgba8).packedPixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        let gray = rgb.converted(to: .gray8)
        #expect(gray.converted(to: .rgb8).converted(to: .gray8).packedPixels == gray.packedPixels)
        #expect(rgba.converted(to: .bgra8).pixel(x: 0, y: 0) == [2, 1, 0, 3].map { rgba.pixel(x: 0, y: 0)[$0] })
    }
}
