"""The study loop in the app: profiles, home, solve, realism rating and audit screens.

`StudyApp` (in `app.py`) adds them on top of the record browser; every write goes
through the study services (`crm_tui.study`) on one writer thread (`context.py`).
"""
