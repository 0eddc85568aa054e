"""The org layer: schema, store, generator, backends, SOQL engine and REST server (no Textual)."""
