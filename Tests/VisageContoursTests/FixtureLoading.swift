import Foundation
import Testing
import VisageContours

/// Fixtures written by Scripts/make-contour-fixtures.py.
enum Fixture {
    static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// One binary image and what OpenCV's findContours (RETR_TREE, CHAIN_APPROX_NONE) returned.
struct FindContoursCase: Decodable, CustomTestStringConvertible, Sendable {
    let name: String
    let width: Int
    let height: Int
    /// Hex rows, 4 pixels per digit, most significant bit first.
    let rows: [String]
    /// Each contour's points as x, y, x, y, …
    let contours: [[Int]]
    /// [next, previous, first child, parent] per contour.
    let hierarchy: [[Int]]

    var testDescription: String { name }

    var mask: BinaryMask {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for (y, row) in rows.enumerated() {
            for (digitIndex, digit) in row.enumerated() {
                let nibble = Int(String(digit), radix: 16)!
                for bit in 0 ..< 4 where nibble & (8 >> bit) != 0 {
                    let x = digitIndex * 4 + bit
                    if x < width { pixels[y * width + x] = 255 }
                }
            }
        }
        return BinaryMask(width: width, height: height, pixels: pixels)
    }

    static func all() throws -> [FindContoursCase] {
        struct File: Decodable { let images: [FindContoursCase] }
        return try Fixture.decode(File.self, from: "findcontours").images
    }
}

/// Random polylines and the indices a plain recursive Ramer–Douglas–Peucker keeps.
struct RDPFixture: Decodable, Sendable {
    struct Case: Decodable, Sendable {
        let polyline: Int
        let epsilon: Double
        let kept: [Int]
    }
    let polylines: [[[Double]]]
    let cases: [Case]

    static func load() throws -> RDPFixture { try Fixture.decode(RDPFixture.self, from: "rdp") }
}
