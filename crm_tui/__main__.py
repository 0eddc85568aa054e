"""`python -m crm_tui`: the `crm-tui` command, for callers that know the interpreter (each
browser tab of `crm-tui web` starts one)."""

from crm_tui.cli import main

main()
