import Shared

Workbook.main(
    step: "Step2Background",
    summary: "downloads and filters posters on two operation queues, off the main thread"
) { options in
    ListViewController(concurrency: options.concurrency ?? 1)
}
