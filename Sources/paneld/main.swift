// Placeholder entry point; the daemon is being built (issue 5).
print("paneld: not yet implemented")
