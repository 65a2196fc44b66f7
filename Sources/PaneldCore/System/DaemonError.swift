/// A fatal start-up or run-time problem, told to the user in plain words.
package struct DaemonError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
