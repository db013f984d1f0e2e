import Shared

Workbook.main(
    step: "Step1Naive",
    summary: "downloads, decodes and filters every poster synchronously on the main thread"
) { _ in
    ListViewController()
}
