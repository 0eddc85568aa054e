"""The org layer: schema catalogue, local store, generator, checks and backends (no Textual)."""
