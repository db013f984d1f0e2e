// `Shared` is the one module a step imports: it re-exports the layers (see `layers` in Package.swift) and
// the Foundation and Synchronization types step code needs. Importing all of Foundation there would make
// `Operation` and `OperationQueue` ambiguous with the simulated ones.
@_exported import CLI
@_exported import Catalog
@_exported import Concurrency
@_exported import Files
@_exported import Imaging
@_exported import Pictures
@_exported import Posters
@_exported import Report
@_exported import Runtime
@_exported import Scenarios
@_exported import Text
@_exported import UI
@_exported import Values
@_exported import World

@_exported import struct Foundation.Data
@_exported import struct Foundation.URL
@_exported import struct Synchronization.Mutex
