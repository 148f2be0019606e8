import ArgumentParser

@main
struct VisageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visage",
        abstract: "Face detection, landmarks and contours, on any platform Swift runs on.",
        subcommands: [])
}
