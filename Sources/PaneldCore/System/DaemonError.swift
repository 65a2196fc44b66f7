/// A fatal start-up or run-time problem, told to the user in plain words.
struct DaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
