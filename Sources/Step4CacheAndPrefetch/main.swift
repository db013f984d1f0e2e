import Shared

Workbook.main(
    step: "Step4CacheAndPrefetch",
    summary: "adds memory and disk caches, one load per URL, cancel-on-reuse and prefetch"
) { options in
    ListViewController(concurrency: options.concurrency ?? 4)
}
