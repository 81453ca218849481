/// The store's spelling of Firestore's types that JSON has no word for: a
/// one-key object whose key names the type.
///
/// ```json
/// {"$timestamp": "2017-06-21T06:59:30Z"}   {"$bytes": "AAE="}
/// {"$reference": "Perfume/P1"}             {"$geopoint": {"latitude": 37.5, "longitude": 127}}
/// {"$double": "NaN"}                       (NaN and ±Infinity, which JSON cannot write)
/// ```
public enum ExtendedValue {
    public static let timestamp = "$timestamp"
    public static let bytes = "$bytes"
    public static let reference = "$reference"
    public static let geopoint = "$geopoint"
    public static let double = "$double"

    /// Every key above.
    public static let keys: Set<String> = [timestamp, bytes, reference, geopoint, double]
}
