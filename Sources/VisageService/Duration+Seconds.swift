extension Duration {
    /// The duration in seconds, as a `Double` (timers, frame times).
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in milliseconds, as a `Double` (stage timings, messages).
    var milliseconds: Double { Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15 }
}
