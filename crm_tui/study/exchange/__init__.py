"""Studies done offline: one annotator's work exported to a file and merged back into the coordinator's study."""
