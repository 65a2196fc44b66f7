extension Font {
    /// The ellipsis that ends a shortened line.
    public static let ellipsis = "\u{2026}"

    /// `text` if its advance fits `width` pixels; else its longest prefix of
    /// whole characters (trailing spaces dropped) followed by an ellipsis that
    /// fits, so a line is shortened at a glyph boundary, never cut through a
    /// glyph; empty when not even the ellipsis fits.
    public func truncated(_ text: String, toWidth width: Double) -> String {
        if advance(of: text) <= width { return text }
        guard advance(of: Self.ellipsis) <= width else { return "" }
        // The advance grows with the prefix: the longest prefix that fits is
        // found by halving (about log2(n) measurements).
        let characters = Array(text)
        var fits = 0, tooLong = characters.count
        while tooLong - fits > 1 {
            let k = (fits + tooLong) / 2
            if advance(of: Self.shortened(characters, to: k)) <= width { fits = k } else { tooLong = k }
        }
        return Self.shortened(characters, to: fits)
    }

    /// The first `count` characters, trailing whitespace dropped, and the ellipsis.
    private static func shortened(_ characters: [Character], to count: Int) -> String {
        var prefix = characters[0..<count]
        while let last = prefix.last, last.isWhitespace { prefix = prefix.dropLast() }
        return String(prefix) + ellipsis
    }
}
