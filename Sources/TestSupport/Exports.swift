/// Tests see the loopback HTTP server as part of TestSupport.
@_exported import LoopbackHTTP
