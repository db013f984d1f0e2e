import Shared

print("Step1Naive: not built yet")
