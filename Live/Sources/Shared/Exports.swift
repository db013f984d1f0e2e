// The live `Shared`: what a step imports when it is built against real Foundation. Foundation's own
// `BlockOperation` and `Thread` stand where the simulator has look-alikes, and its `Operation` and
// `OperationQueue` under subclasses that count what the simulator counts (`Operation.swift`,
// `LateCompletions.swift`);
// the layers that do not depend on the simulated runtime are the workbook's own folders, built here
// again, among them `Values` (`IndexPath`, `NetworkError`, the clock's `Instant`, which a step names
// alike in both); the rest (UIKit, network, disk, clock, executor,
// report, command line) are the thin twins in this folder. `Mutex` is `LiveLock`'s, over a lock
// ThreadSanitizer sees, where the simulator's `Shared` gives Synchronization's.
@_exported import Catalog
@_exported import Files
@_exported import Imaging
@_exported import Values

@_exported import class Foundation.BlockOperation
@_exported import struct Foundation.Data
@_exported import class Foundation.Thread
@_exported import struct Foundation.URL
@_exported import struct LiveLock.Mutex
