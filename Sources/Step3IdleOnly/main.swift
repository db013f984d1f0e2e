import Shared

Workbook.main(
    step: "Step3IdleOnly",
    summary: "loads posters only while the table is still, and cancels work for rows that left the screen"
) { options in
    ListViewController(concurrency: options.concurrency ?? 1)
}
