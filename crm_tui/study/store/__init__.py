"""The study store: tables, migrations, the engine and the event log. Only the study layer's own rooms and its service reach in here."""
