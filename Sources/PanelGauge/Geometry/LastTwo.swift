/// The values made for the last two keys asked for: a stroke asks again for
/// what it asked for two calls before (a dashed ring's dashes alternate between
/// the same two circles; an outer arc's start angle is where its inner arc
/// ends), so two entries catch what one misses, and more would not.
struct LastTwo<Key: Equatable, Value> {
    private var keys: (Key, Key)
    private var values: (Value, Value)

    /// Empty: `unmatched` must equal no key (NaN in it does), `placeholder` is
    /// never returned. (Sentinels, not optionals: the lookup sits in the arc
    /// set-up of every stroke, and optionals cost 0.5 % of a frame there.)
    init(unmatched: Key, placeholder: Value) {
        keys = (unmatched, unmatched)
        values = (placeholder, placeholder)
    }

    /// The value for `key`: remembered, or `make(key)`, remembered from now on.
    @inline(__always)
    mutating func value(for key: Key, _ make: (Key) -> Value) -> Value {
        if key != keys.0 {
            if key == keys.1 {
                swap(&keys.0, &keys.1)
                swap(&values.0, &values.1)
            } else {
                keys = (key, keys.0)
                values = (make(key), values.0)
            }
        }
        return values.0
    }
}
