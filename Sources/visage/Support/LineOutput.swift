import Foundation

/// The CLI's `print`: every line it prints is a result (a per-image line, an event, a JSON Lines
/// record), so each call goes straight to standard output with one `write`, on a pipe as on a
/// terminal. The standard library's `print` buffers a whole block when stdout is a pipe, which held
/// `visage track … | consumer` events back until the process exited.
///
/// Declared in the module, it shadows the standard library's `print` in every subcommand.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator) + terminator
    FileHandle.standardOutput.write(Data(text.utf8))
}
