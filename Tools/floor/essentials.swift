// The Swift runtime and FoundationEssentials (no ICU).
import FoundationEssentials

print("hi", FileManager.default.fileExists(atPath: "/tmp"))
