/// The scenarios the checks make for their own runs beyond the built-in ones (the student writes none of
/// them): each is written under `out/` from its text when missing, and its comment says what it provokes.
extension Exercises {
    /// Forty rows under every kind of fault: truncated and corrupt bodies (a 200 whose decode fails),
    /// timeouts, refused connections, 500s and the catalog's 404s, so each way a download fails runs.
    static let faultyNetwork = ScenarioChoice.file(
        path: "out/faults.scenario",
        make: .text(
            """
            rows 40
            seed 7
            network rtt=120ms jitter=30ms bandwidth=1000KB/s connections=6 timeout=3s
            faults truncated=10% corrupt=20% timeout=10% refused=5% server-error=5%
            wait 3s
            drag to row 8 over 1s
            wait 4s

            """))

    /// A short run in which a quarter of the posters arrive with bytes flipped, so that `Image(data:)`
    /// refuses them: a decode that forces its result crashes here.
    static let corruptBodies = ScenarioChoice.file(
        path: "out/corrupt-bodies.scenario",
        make: .text(
            """
            # Posters whose bodies do not decode: a quarter arrive with bytes flipped.
            rows 30
            seed 7
            network rtt=20ms jitter=5ms bandwidth=2MB/s connections=6 timeout=10s
            faults corrupt=25%
            wait 2s
            drag to row 10 over 1s
            wait 2s

            """))

    /// Twenty rows on screen and a near-instant network: the one sepia filter falls behind the downloads,
    /// and a fling leaves while filtrations (and a few downloads) wait, so the next stop cancels both
    /// kinds of work for rows that left.
    static let pendingAtStop = ScenarioChoice.file(
        path: "out/pending-at-stop.scenario",
        make: .text(
            """
            rows 100
            seed 7
            network rtt=1ms jitter=0ms bandwidth=1000MB/s connections=6 timeout=10s
            screen height=1800 row=88 refresh=60
            wait 0.06s
            fling to row 60
            wait 2s

            """))

    /// A revisit on a slow network: the table stops, moves on before the stop's posters arrive (their
    /// downloads are cancelled while under way), then comes back and waits long enough for every poster.
    static let revisit = ScenarioChoice.file(
        path: "out/revisit.scenario",
        make: .text(
            """
            rows 60
            seed 29
            network rtt=700ms jitter=100ms bandwidth=300KB/s connections=6 timeout=15s
            wait 4s
            drag to row 8 over 1s
            wait 0.6s
            drag to row 24 over 0.4s
            wait 1s
            drag to row 8 over 0.6s
            wait 10s

            """))

    /// Rows 24 and 27 of the catalog: URLs that end in the same file name (`…/spst/…/p2271600704.png`
    /// and `…/mpst/…/p2271600704.png`), loaded, then loaded again from disk after a relaunch.
    static let sharedName = ScenarioChoice.file(
        path: "out/shared-name.scenario",
        make: .text(
            """
            # Rows 24 and 27 have URLs with the same last path component.
            rows 60
            seed 7
            wait 3s
            drag to row 20 over 1s
            wait 5s
            relaunch
            wait 3s
            drag to row 20 over 1s
            wait 5s

            """))

    /// The first screen, then the same posters' repeats past the catalog's end (the same addresses with
    /// `?copy=1`), then a relaunch back at the top: a name that leaves the query out makes each repeat
    /// take its original's file, so the relaunch downloads the first screen again.
    static let repeatedRows = ScenarioChoice.file(
        path: "out/repeated-rows.scenario",
        make: .text(
            """
            rows 500
            seed 7
            network rtt=60ms jitter=10ms bandwidth=2000KB/s connections=6 timeout=10s
            wait 1.5s
            fling to row 238
            wait 1.5s
            relaunch
            wait 1.5s

            """))

    /// Rows 3 and 230, and rows 27 and 182: URLs whose hashes share their first three hex digits, all
    /// loaded, then loaded again after a relaunch, so a name cut short makes two posters share a file and
    /// the relaunch download again.
    static let collidingNames = ScenarioChoice.file(
        path: "out/colliding-names.scenario",
        make: .text(
            """
            rows 240
            seed 7
            wait 3s
            drag to row 24 over 1s
            wait 3s
            fling to row 178
            wait 3s
            fling to row 228
            wait 3s
            relaunch
            wait 3s
            drag to row 24 over 1s
            wait 3s
            fling to row 178
            wait 3s
            fling to row 228
            wait 3s

            """))

    /// A slow network with loads still waiting for a download slot when a fling begins: a transfer that
    /// ends during the fling frees a slot the suspended line must not hand out.
    static let flingWhileWaiting = ScenarioChoice.file(
        path: "out/fling-while-waiting.scenario",
        make: .text(
            """
            rows 60
            seed 23
            network rtt=800ms jitter=300ms bandwidth=150KB/s connections=6 timeout=15s
            wait 1s
            fling to row 40
            wait 3s

            """))
}
