"""How long `crm-tui` takes to start: `--version`, and the app to its first screen.

Each measure runs in a fresh process, side by side with its floor (the same interpreter
doing nothing: `python -c pass`), alternating, and prints medians. The app starts warm:
the data folder already holds the default org, task set and practice study (made once
before timing), as on every start after the first; it runs in a pseudo-terminal of 120x40,
and the time ends when the profile screen's prompt is on that terminal. Warm also means
Python's bytecode caches are written, as a person's Python writes them on the first start:
the commands run without PYTHONDONTWRITEBYTECODE (which some shells set, and
which made every timed start compile each crm_tui module from source), after one untimed
start of each. A third measure is the app's floor: Textual alone painting the same prompt
and one Input, timed the same way.

Run: python -m tests.benchmarks.bench_startup [--repeat 11]  (prints a Markdown table;
`--smoke`: one run each, on an org at scale 0.02: the start barely depends on its size).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import resource
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.benchmarks import smoke

FIRST_SCREEN = b"Who is working?"  # the profile screen's prompt (crm_tui/tui/study/profile.py)
SCREEN_SECONDS = 120.0  # a start slower than this is a failure, not a figure
# The app's own floor: Textual alone, importing itself and painting the prompt and one
# Input (the profile screen's least), timed the same way.
TEXTUAL_ALONE = f"""
from textual.app import App
from textual.widgets import Input, Label

class FirstScreen(App):
    def compose(self):
        yield Label({FIRST_SCREEN.decode()!r})
        yield Input(placeholder="Your name")

FirstScreen().run()
"""


def crm_tui_command() -> list[str]:
    """The installed `crm-tui` script beside this interpreter, as a person runs it."""
    script = Path(sys.executable).with_name("crm-tui")
    return [str(script)] if script.exists() else [sys.executable, "-m", "crm_tui"]


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's ended children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_process(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of running `command` to its end."""
    started, cpu = time.perf_counter(), children_cpu()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, children_cpu() - cpu


def time_first_screen(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting the app in a 120x40 pseudo-terminal to its first screen shown,
    and the app's CPU seconds (to its end, which follows at once)."""
    controller, terminal = pty.openpty()
    cpu = children_cpu()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    started = time.perf_counter()
    app = subprocess.Popen(
        command,
        env={**env, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"},
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        start_new_session=True,
    )
    os.close(terminal)
    shown = b""
    try:
        while FIRST_SCREEN not in shown:
            left = started + SCREEN_SECONDS - time.perf_counter()
            ready, _, _ = select.select([controller], [], [], max(left, 0))
            if not ready:
                raise TimeoutError(f"no first screen in {SCREEN_SECONDS:g} s: {shown[-500:]!r}")
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the app closed the terminal: it ended
                chunk = b""
            if not chunk:
                raise RuntimeError(f"the app ended before its first screen: {shown[-2000:]!r}")
            shown += chunk
        wall = time.perf_counter() - started
    finally:
        os.killpg(app.pid, signal.SIGTERM)
        try:  # drain the terminal, or an app writing to it on its way out could block
            while select.select([controller], [], [], 5)[0] and os.read(controller, 65536):
                pass
        except OSError:
            pass
        app.wait(timeout=30)
        os.close(controller)
    return wall, children_cpu() - cpu


def make_data_folder(folder: Path, scale: float) -> None:
    """The data folder as the first run leaves it (not timed): the default org, its task
    set and the practice study. An org at another scale than the default's 1 takes the
    default org's place, with a task set of what it can fill."""
    from crm_tui import paths
    from crm_tui.cli.org import ensure_first_run

    if scale != 1.0:
        org = paths.default_org_path()
        org.parent.mkdir(parents=True)
        shutil.copyfile(smoke.task_org(folder, scale), org)
        from crm_tui.org.store.orgstore import OrgStore
        from crm_tui.tasks.generate import generate_taskset
        from crm_tui.tasks.taskset import write_taskset

        with OrgStore.open(org) as store:
            tasks = generate_taskset(store, per_task=2, seed=1, allow_short=True)
        write_taskset(tasks, paths.default_taskset_path())
    ensure_first_run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--scale", type=float, default=1.0, help="the default org's scale")
    args = smoke.parse(parser, argv, repeat=1, scale=0.02)
    with smoke.bench_folder(True) as folder:
        os.environ["CRM_TUI_HOME"] = str(folder / "home")
        for name in ("CRM_TUI_ORG", "CRM_TUI_TASKS", "CRM_TUI_STUDY", "CRM_TUI_STUDY_URL"):
            os.environ.pop(name, None)
        make_data_folder(folder, args.scale)
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm: bytecode cached, as a person's is
        command = crm_tui_command()
        time_process([*command, "--version"], env)  # untimed: writes the bytecode caches
        time_first_screen(command, env)
        textual_alone = [sys.executable, "-c", TEXTUAL_ALONE]
        runs: dict[str, list[tuple[float, float]]] = {
            "floor": [],
            "version": [],
            "app": [],
            "textual": [],
        }
        for _ in range(args.repeat):  # alternating, so a change of load hits them all
            runs["floor"].append(time_process([sys.executable, "-c", "pass"], env))
            runs["version"].append(time_process([*command, "--version"], env))
            runs["app"].append(time_first_screen(command, env))
            runs["textual"].append(time_first_screen(textual_alone, env))
    load = os.getloadavg()[0]
    wall = {name: statistics.median(w for w, _ in got) * 1000 for name, got in runs.items()}
    cpu = {name: statistics.median(c for _, c in got) * 1000 for name, got in runs.items()}
    print(f"median of {args.repeat}; 1-minute load average {load:.1f} at the end")
    print()
    print("| start | wall ms | CPU ms | floor (`python -c pass`) wall / CPU ms | target wall ms |")
    print("|---|---:|---:|---:|---:|")
    floor = f"{wall['floor']:.0f} / {cpu['floor']:.0f}"
    print(f"| `crm-tui --version` | {wall['version']:.0f} | {cpu['version']:.0f} | {floor} | 300 |")
    print(
        f"| `crm-tui` to the first screen (warm, org at scale {args.scale:g}) | "
        f"{wall['app']:.0f} | {cpu['app']:.0f} | {floor} | 800 |"
    )
    print(
        "| Textual alone: the prompt and one Input, to the first frame (the app's floor) | "
        f"{wall['textual']:.0f} | {cpu['textual']:.0f} | {floor} | |"
    )


if __name__ == "__main__":
    main()
