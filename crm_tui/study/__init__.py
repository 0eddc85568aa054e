"""The study layer: SQLModel tables and services for profiles, attempts, ratings (no Textual)."""
