import Foundation
import Testing
import VisageImage

struct ResizeTests {
    @Test("Matches OpenCV (INTER_AREA shrinking, INTER_LINEAR) within ±1", arguments: Fixtures.manifest.resize)
    func matchesOpenCV(_ entry: Manifest.Resize) throws {
        let source = try Image(width: 37, height: 23, pixelFormat: .rgb8, pixels: [UInt8](Fixtures.data(entry.source)))
        let resized = try source.resized(width: entry.width, height: entry.height, method: entry.method == "area" ? .area : .bilinear)
        let difference = try #require(maximumDifference(resized, Fixtures.reference(entry)))
        #expect(difference <= entry.tolerance)
    }

    @Test("Every format resizes all its channels alike", arguments: PixelFormat.allCases)
    func formatsAgree(_ format: PixelFormat) throws {
        var generator = SeededGenerator(state: 7)
        let rgb = try randomImage(width: 23, height: 11, format: .rgb8, using: &generator)
        let image = rgb.converted(to: format)
        for method in [ResizeMethod.area, .bilinear] {
            let expected = try rgb.resized(width: 9, height: 5, method: method).converted(to: format)
            let actual = try image.resized(width: 9, height: 5, method: method)
            // Gray converts before versus after filtering: rounding may differ by one.
            #expect(try #require(maximumDifference(actual, expected)) <= (format == .gray8 ? 1 : 0))
        }
    }

    @Test func areaAveragesWholeBlocks() throws {
        let image = try Image(width: 4, height: 2, pixelFormat: .gray8, pixels: [0, 10, 20, 30, 40, 50, 60, 71])
        #expect(try image.resized(width: 2, height: 1, method: .area).packedPixels == [25, 45])
    }

    @Test func rejectsEmptyAndHugeSizes() throws {
        let image = try Image(width: 1, height: 1, pixelFormat: .gray8, pixels: [1])
        #expect(throws: ImageError.invalidParameter(name: "width", value: "0", rule: "must be positive")) {
            try image.resized(width: 0, height: 3, method: .area)
        }
        #expect(throws: ImageError.imageTooLarge(width: 100_000_000, height: 2, limit: 100_000_000)) {
            try image.resized(width: 100_000_000, height: 2, method: .bilinear)
        }
    }

    @Test("Extreme ratios stay exact", arguments: [ResizeMethod.area, .bilinear])
    func extremeRatios(_ method: ResizeMethod) throws {
        let column = try Image(width: 1, height: 300, pixelFormat: .gray8, pixels: [UInt8](repeating: 77, count: 300))
        #expect(try column.resized(width: 5, height: 1, method: method).packedPixels == [77, 77, 77, 77, 77])
        #expect(try column.resized(width: 1, height: 1000, method: method).packedPixels.allSatisfy { $0 == 77 })
    }
}
