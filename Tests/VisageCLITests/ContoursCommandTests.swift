import Foundation
import Testing

@Suite struct ContoursCommandTests {
    @Test func summarizesASample() throws {
        let result = try CLIRunner.run(["contours", "Samples/horse.png"])
        #expect(result.status == 0)
        #expect(result.stdout == "Samples/horse.png (400×328 → 400×328): 2 contours, 1 top level\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonHasTheHierarchyAndNormalizedPoints() throws {
        let result = try CLIRunner.run(["contours", "--json", "Samples/horse.png"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["contourCount"] as? Int == 2)
        #expect(object["topLevelContourCount"] as? Int == 1)
        let contours = try #require(object["contours"] as? [[String: Any]])
        #expect(contours.map { $0["indexPath"] as? [Int] } == [[0], [0, 0]])
        for contour in contours {
            let points = try #require(contour["normalizedPoints"] as? [[Double]])
            #expect(points.count == contour["pointCount"] as? Int)
            #expect(points.allSatisfy { $0.count == 2 && (0...1).contains($0[0]) && (0...1).contains($0[1]) })
        }
    }

    @Test func writesSVGAndPNG() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = CLIRunner.packageRoot.appendingPathComponent("Samples/horse.png").path
        let result = try CLIRunner.run(["contours", sample, "--svg", "out.svg", "--png", "out.png"], in: folder)
        #expect(result.status == 0)
        let svg = try String(contentsOf: folder.appendingPathComponent("out.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("<path") || svg.contains("<polyline") || svg.contains("<polygon"))
        let png = try Data(contentsOf: folder.appendingPathComponent("out.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func outOfRangeParametersAreUsageErrors() throws {
        let adjustment = try CLIRunner.run(["contours", "Samples/horse.png", "--contrast-adjustment", "5"])
        #expect(adjustment.status == 2)
        #expect(adjustment.stderr.contains("--contrast-adjustment 5.0 must be within 0...3"))
        let dimension = try CLIRunner.run(["contours", "Samples/horse.png", "--max-dimension", "10"])
        #expect(dimension.status == 2)
    }

    @Test func unreadableFileExitsOneNamingIt() throws {
        let result = try CLIRunner.run(["contours", "missing.png"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("visage: missing.png: "))
    }
}
