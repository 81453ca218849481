/// Tests see the loopback HTTP server as part of TestSupport.
@_exported import LoopbackHTTP

/// A value behind a mutex that tests share between tasks.
public typealias Locked = LoopbackLock
