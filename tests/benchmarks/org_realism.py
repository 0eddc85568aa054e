"""Realism measures of the default org: a table for the documentation (docs: org.md).

Generates (or reuses) the org of `--seed` at `--scale` and prints every measure of
`crm_tui.org.realism_measures` with the bar it is held to and whether the org meets it,
then the measures that compare it with the org of the next seed (articles that read the
same in both).

Run: python -m tests.benchmarks.org_realism [--seed 1] [--scale 1] [--smoke]
[--markdown docs/snippets/org_realism.md] (prints a Markdown table; with `--markdown`
also writes it to that file, which the org page of the documentation includes).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from crm_tui.org.realism_articles import share_identical_articles
from crm_tui.org.realism_measures import measure_realism
from crm_tui.org.store.orgstore import OrgStore
from tests.benchmarks import smoke


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE)
    with smoke.bench_folder(args.smoke) as folder:
        path = smoke.task_org(folder, args.scale, args.seed)
        other = smoke.task_org(folder, args.scale, args.seed + 1)
        with OrgStore.open(path) as store, OrgStore.open(other) as next_store:
            measures = measure_realism(store)
            identical = share_identical_articles(store, next_store)
    lines = [
        f"Seed {args.seed}, scale {args.scale:g}:",
        "",
        "| measure | value | bar | meets |",
        "|---|---:|---:|:---:|",
    ]
    for m in measures:
        meets = {None: "", True: "yes", False: "**no**"}[m.meets]
        lines.append(f"| {m.label} | {m.shown()} | {m.bar.replace('==', '=')} | {meets} |")
    lines += [
        "",
        f"Seeds {args.seed} and {args.seed + 1}, scale {args.scale:g}:",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| knowledge articles that read the same in both orgs | {identical:.3f} |",
    ]
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown is not None:
        args.markdown.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
