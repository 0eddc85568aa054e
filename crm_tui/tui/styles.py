"""Where a screen's styles live: in a `.tcss` file next to its module, of the same name.

Textual resolves a relative CSS_PATH against the module of whichever class reads it, so a
subclass in another module would look in the wrong folder; an absolute path does not.
Screen stylesheets load once and then apply app-wide, so their rules start with the
screen's own class or ids only it composes.
"""

from __future__ import annotations

from pathlib import Path, PurePath


def css_next_to(module_file: str) -> list[str | PurePath]:
    """The stylesheet beside `module_file` (`record.py` -> `record.tcss`)."""
    return [Path(module_file).with_suffix(".tcss")]
