"""The Textual app: app factory, screens, widgets and styles."""
