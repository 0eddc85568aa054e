"""Reusable widgets of the browser."""
