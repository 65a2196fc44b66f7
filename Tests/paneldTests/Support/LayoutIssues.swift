@testable import PaneldCore

/// The issues the layout reader reports for `json`; none when it reads.
func issues(_ json: String) -> [LayoutIssue] {
    do {
        _ = try LayoutReader.parse(Array(json.utf8))
        return []
    } catch {
        return error.issues
    }
}
