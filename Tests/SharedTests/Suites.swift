import Testing

// The suites of this target. Each is a handful of files that extend it, one idea a file.

/// The simulated phone on its own: scheduler and threads, queues and operations, network, frames and
/// hitches, scrolling, the table view and the screen audit (`World/`).
@Suite("The simulated world") struct WorldTests {}

/// The PNG decoder and encoder, deflate and inflate, and the checksums and hashes they use.
@Suite("PNG, deflate and checksums") struct CodecTests {}

/// Posters and pixels: the generator, the sepia filter, pixels made on demand, the memo and the poster
/// file cache, and Belady's MIN for caches of posters.
@Suite("Posters, pixels and their caches") struct ImagingTests {}

/// What comes in from outside: command-line options, scenario files, the movie catalog, input and output
/// files, and the trace's JSON Lines.
@Suite("Options, scenarios, the catalog and files") struct InputTests {}

/// The parts pictures and the live table are drawn with: fonts, thumbnails, terminal widths and frames.
@Suite("Pictures' parts: fonts, thumbnails and the terminal table") struct PicturePartsTests {}
