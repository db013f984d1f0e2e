/// The live table in the terminal. Called by `LiveRun` once a frame, on the main thread, after the app's
/// work for that frame and outside its measured stretches; `finish` once, when the scenario has ended.
/// Does nothing yet: the run is headless.
enum LiveDrawing {
    static func frame(_ table: TableView?, at time: Int64) {}

    static func finish() {}
}
