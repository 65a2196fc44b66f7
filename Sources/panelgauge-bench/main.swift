print("panelgauge-bench: not yet implemented")
