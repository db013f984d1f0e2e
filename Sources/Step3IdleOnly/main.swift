import Shared

print("Step3IdleOnly: not built yet")
