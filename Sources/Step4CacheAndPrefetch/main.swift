import Shared

print("Step4CacheAndPrefetch: not built yet")
