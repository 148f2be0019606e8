import Foundation
import Visage

/// Where the service finds its bundled files (the page's `Web/` folder, `openapi.yaml`, `docs.html`),
/// without SwiftPM's `Bundle.module`, which traps when a binary is copied out of `.build`.
///
/// Searched in order, the first folder that holds `openapi.yaml` wins:
/// 1. `VISAGE_SERVICE_RESOURCES`;
/// 2. SwiftPM's resource folder beside the executable, `Visage_VisageService.resources` (what `swift build`,
///    `swift run` and `swift test` make);
/// 3. the install prefix, `<folder of the executable>/../share/visage/service` (the packaged tarball's layout).
public enum ServiceResources {
    public static let resourceBundleName = "Visage_VisageService"

    /// The folders searched, in order.
    public static var searchPath: [URL] {
        var folders: [URL] = []
        if let folder = ProcessInfo.processInfo.environment["VISAGE_SERVICE_RESOURCES"], !folder.isEmpty {
            folders.append(URL(fileURLWithPath: folder))
        }
        for executable in executableFolders {
            #if canImport(Darwin)
            folders.append(executable.appendingPathComponent(resourceBundleName + ".bundle/Contents/Resources"))
            #else
            folders.append(executable.appendingPathComponent(resourceBundleName + ".resources"))
            #endif
        }
        for executable in executableFolders {
            folders.append(executable.deletingLastPathComponent().appendingPathComponent("share/visage/service").standardizedFileURL)
        }
        return folders
    }

    /// The first folder of ``searchPath`` holding the service's files, or nil.
    public static let folder: URL? = searchPath.first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("openapi.yaml").path)
    }

    /// The bytes of the bundled file `name`, or nil when the resources are not installed.
    static func data(_ name: String) -> Data? {
        folder.flatMap { try? Data(contentsOf: $0.appendingPathComponent(name)) }
    }

    /// The running executable's folders, as the models are found (links resolved, then as started).
    private static var executableFolders: [URL] { ModelLocation.executableFolders }
}
