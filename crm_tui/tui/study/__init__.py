"""The study loop in the app: profiles, home, solve, realism rating, audit and results.

`StudyApp` (in `study_app.py`) adds these screens on top of the record browser. They
reach the study only through `crm_tui.study.service.StudyService`, whose writer thread
runs every call in order, and hold only the plain data it returns.
"""
