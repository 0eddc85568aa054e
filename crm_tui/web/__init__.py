"""The browser server: textual-serve, one app process per browser tab, with what a served study needs."""
