/// The exercises of chapter 1 and the scenarios they play.
extension Exercises {
    /// The course scenario on a fast network, as exercise 1.2 has the student write it.
    static let fastNetwork = (
        "network ", "network rtt=20ms jitter=5ms bandwidth=20MB/s connections=6 timeout=10s"
    )
    static let fast = ScenarioChoice.file(
        path: "out/fast.scenario", make: .builtIn("course", replacing: [fastNetwork]))
    static let fast120 = ScenarioChoice.file(
        path: "out/fast120.scenario",
        make: .builtIn(
            "course", replacing: [fastNetwork, ("screen ", "screen height=667 row=88 refresh=120")]))

    static let chapter1: [Exercise] = [
        Exercise(
            id: "1.1", step: 1, kind: .run,
            hints: ["Look at hitch_time_ratio_ms_per_s and the band beside it."],
            runs: [RunSpec(label: "reading", step: .this, scenario: .builtIn("reading"))],
            expectations: [
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "reading"), .above, .number(50),
                    says: "step 1 should stutter even at reading pace")
            ]),
        Exercise(
            id: "1.2", step: 1, kind: .run,
            hints: [
                "Change only the network line: network rtt=20ms jitter=5ms bandwidth=20MB/s connections=6 timeout=10s",
                "Compare main_thread_busy_ms and hitch_time_ms with a run of the course itself.",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "fast", step: .this, scenario: fast),
            ],
            expectations: [
                Expectation(
                    .metric("main_thread_busy_ms", of: "fast"), .below,
                    .metric("main_thread_busy_ms", of: "course"),
                    times: 0.5, says: "a fast network should at least halve the main thread's work"),
                Expectation(
                    .metric("hitch_time_ms", of: "fast"), .below, .metric("hitch_time_ms", of: "course"),
                    times: 0.5, says: "a fast network should at least halve the hitch time"),
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "fast"), .above, .number(50),
                    says: "decoding and filtering on the main thread should keep the worst band"),
            ]),
        Exercise(
            id: "1.3", step: 1, kind: .run,
            hints: [
                "Change only the screen line: screen height=667 row=88 refresh=120",
                "Each late frame is forgiven one frame's time: at 120 Hz that allowance halves.",
            ],
            runs: [
                RunSpec(label: "fast", step: .this, scenario: fast),
                RunSpec(label: "fast120", step: .this, scenario: fast120),
            ],
            expectations: [
                Expectation(
                    .metric("hitch_time_ms", of: "fast120"), .above, .metric("hitch_time_ms", of: "fast"),
                    says: "at 120 Hz the same stalls should overrun more frame time"),
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "fast120"), .above,
                    .metric("hitch_time_ratio_ms_per_s", of: "fast"), says: "at 120 Hz the ratio should rise"),
            ]),
    ]
}
