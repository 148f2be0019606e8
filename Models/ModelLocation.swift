import Foundation

/// Where Visage looks for its model files, so that a binary runs wherever it is installed.
///
/// The folders are searched in order, and the first that holds a model's file provides it (every
/// load then checks the file's size and SHA-256, so any of them gives the same bytes):
///
/// 1. ``directory``, when the application sets one;
/// 2. the folder named by the `VISAGE_MODELS` environment variable;
/// 3. SwiftPM's resource folder beside the executable, `Visage_VisageModels.resources`, which
///    `swift build`, `swift run` and `swift test` make;
/// 4. the install prefix, `<folder of the executable>/../share/visage`, the layout of the
///    `Scripts/package.sh` tarball and of `/usr/local/bin` + `/usr/local/share/visage`.
///
/// SwiftPM's generated `Bundle.module` is never used: it traps when its bundle is missing, which is
/// the case for every binary copied out of `.build`. A model found nowhere is a
/// ``ModelFileError/notFound(model:searched:)`` that lists the places above.
///
/// ```swift
/// ModelLocation.directory = URL(fileURLWithPath: "/opt/myapp/visage-models")   // before the first detection
/// ```
public enum ModelLocation {
    /// One folder searched, and why it is searched.
    public struct Place: Sendable, Equatable, CustomStringConvertible {
        public enum Origin: String, Sendable, Equatable {
            case application = "ModelLocation.directory"
            case environment = "VISAGE_MODELS"
            case besideExecutable = "beside the executable"
            case installPrefix = "install prefix"
        }

        public var path: String
        public var origin: Origin

        public init(path: String, origin: Origin) {
            self.path = path
            self.origin = origin
        }

        public var description: String { "\(path) (\(origin.rawValue))" }
    }

    /// The name of SwiftPM's resource bundle for the `VisageModels` target: `<package>_<target>`.
    public static let resourceBundleName = "Visage_VisageModels"

    /// A folder searched before all others; nil (the default) searches only the standard places.
    ///
    /// Set it before the first detection: loaded models are kept for the life of the process.
    public static var directory: URL? {
        get { lock.withLock { storedDirectory } }
        set { lock.withLock { storedDirectory = newValue } }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var storedDirectory: URL?

    /// The folders searched now, in order.
    public static var searchPath: [Place] {
        searchPath(directory: directory, environment: ProcessInfo.processInfo.environment, executableFolders: executableFolders)
    }

    /// The search path for the given settings; ``searchPath`` with this process's.
    package static func searchPath(directory: URL?, environment: [String: String], executableFolders: [URL]) -> [Place] {
        var places: [Place] = []
        if let directory { places.append(Place(path: directory.path, origin: .application)) }
        if let folder = environment["VISAGE_MODELS"], !folder.isEmpty {
            places.append(Place(path: URL(fileURLWithPath: folder).standardizedFileURL.path, origin: .environment))
        }
        for folder in executableFolders {
            places.append(Place(path: resourceFolder(besideExecutableIn: folder).path, origin: .besideExecutable))
        }
        for folder in executableFolders {
            let prefix = folder.deletingLastPathComponent().appendingPathComponent("share/visage").standardizedFileURL
            places.append(Place(path: prefix.path, origin: .installPrefix))
        }
        var seen = Set<String>()
        return places.filter { seen.insert($0.path).inserted }
    }

    /// The file of `model` in the first place of `searchPath` that has it.
    /// - Throws: ``ModelFileError/notFound(model:searched:)`` listing every place searched.
    package static func url(for model: BundledModel, searchPath: [Place]) throws(ModelFileError) -> URL {
        for place in searchPath {
            let url = URL(fileURLWithPath: place.path).appendingPathComponent(model.fileName)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return url
            }
        }
        throw .notFound(model: model.fileName, searched: searchPath)
    }

    /// SwiftPM's resource folder for the models, as it lays it out beside an executable in `folder`.
    private static func resourceFolder(besideExecutableIn folder: URL) -> URL {
        #if canImport(Darwin)
        let bundle = folder.appendingPathComponent(resourceBundleName + ".bundle")
        return Bundle(url: bundle)?.resourceURL ?? bundle.appendingPathComponent("Contents/Resources")
        #else
        return folder.appendingPathComponent(resourceBundleName + ".resources")
        #endif
    }

    /// The folder of the running executable with symbolic links resolved (so a link in
    /// `/usr/local/bin` finds the prefix of the file it points at), then the folder it was started
    /// from when that differs, and the main bundle's. The service looks for its own files in the same places.
    package static let executableFolders: [URL] = {
        var folders: [URL] = []
        #if os(Linux)
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: target).deletingLastPathComponent())
        }
        #endif
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
            folders.append(executable.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        var seen = Set<String>()
        return folders.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
    }()
}
