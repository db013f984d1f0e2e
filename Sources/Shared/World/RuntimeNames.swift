import Runtime

// The runtime's look-alikes, named plainly here though Foundation (which files here import) has its own.
package typealias Operation = Runtime.Operation
package typealias OperationQueue = Runtime.OperationQueue
package typealias BlockOperation = Runtime.BlockOperation
