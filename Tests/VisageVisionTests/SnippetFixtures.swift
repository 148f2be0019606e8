import Foundation
import Visage
import VisageVision

/// The files the snippets run on: `Samples/` and the EXIF-oriented photos of VisageTests' fixtures.
enum SnippetFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func sample(_ name: String) -> URL { root.appendingPathComponent("Samples/\(name)") }

    /// A photo of one face stored turned by EXIF orientation `exif` (Scripts/make-face-fixtures.py).
    static func oriented(_ exif: Int) -> URL { root.appendingPathComponent("Tests/VisageTests/Fixtures/oriented-\(exif).jpg") }

    /// The Vision error code `body` throws; nil when it throws none or another kind of error.
    static func visionErrorCode(_ body: () throws -> Void) -> VNError.Code? {
        do {
            try body()
            return nil
        } catch {
            return VNError(error)?.code
        }
    }

    /// Largest coordinate difference between two lists of points; infinity when their counts differ.
    static func worstDifference(_ a: [CGPoint], _ b: [CGPoint]) -> Double {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { max(abs(Double($0.x - $1.x)), abs(Double($0.y - $1.y))) }.max() ?? 0
    }

    static func worstDifference(_ a: [CGRect], _ b: [CGRect]) -> Double {
        guard a.count == b.count else { return .infinity }
        return worstDifference(a.flatMap { [$0.origin, CGPoint(x: $0.maxX, y: $0.maxY)] },
                               b.flatMap { [$0.origin, CGPoint(x: $0.maxX, y: $0.maxY)] })
    }
}
