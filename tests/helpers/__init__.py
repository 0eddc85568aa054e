"""Shared test helpers, imported as `tests.helpers.<module>` (never by bare module name)."""
