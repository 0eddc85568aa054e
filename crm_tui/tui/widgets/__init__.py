"""Reusable widgets of the browser and the study screens."""
