/// Judges what the live table shows. Called by `LiveRun` once a frame, on the main thread, after the app's
/// work for that frame and outside its measured stretches. Judges nothing yet.
enum LiveJudge {
    static func frame(_ table: TableView?, at time: Int64) {}
}
