// The Swift runtime alone: the least a statically linked Swift process costs.
print("hi")
