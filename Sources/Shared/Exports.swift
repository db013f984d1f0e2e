// The Foundation types step code needs, re-exported so a step imports only `Shared`. Importing all of
// Foundation there would make `Operation` and `OperationQueue` ambiguous with the simulated ones.
@_exported import struct Foundation.Data
@_exported import struct Foundation.URL
