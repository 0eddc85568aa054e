"""The record browser: its app, screens, location history and command palette (no study)."""
