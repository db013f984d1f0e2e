import Shared

print("Step2Background: not built yet")
