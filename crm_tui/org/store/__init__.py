"""The org file: one SQLite database per org (`OrgStore`) and the checks it must pass."""
