import RESTSource

/// The REST source's transport under a name that does not clash with Firestore's
/// (`RESTSource.HTTPTransport` cannot be written: the module and its main type share a name).
public typealias SourceHTTPTransport = HTTPTransport
/// The REST source's request log entry, named apart from Firestore's.
public typealias SourceRequestLogEntry = RequestLogEntry
