#!/usr/bin/env python3
"""Mutation testing of the compiler's sources: every mutant must be killed.

    mutate.py [--build-dir DIR] [--only NAME]... [--all-tests] [--list]
    mutate.py --restore [--build-dir DIR]

Each mutant of test/mutation/mutants.toml is a bug planted in a source file
of the compiler (the CUDA emitter, the lowering passes, the sm_90 backend's
rules, the host runtime the emitted launcher calls): an exact anchor snippet
and its replacement. For each mutant the script

1. checks that the anchor occurs exactly once in its file (all mutants are
   checked before anything is changed; a missing or ambiguous anchor fails
   the run, so the list cannot rot silently),
2. writes the mutant into the source tree, keeping the original in
   BUILD/mutation/backup,
3. builds the targets its tests need (ninja, incrementally) and runs its
   tests in order -- the CI tests named in mutants.toml -- until one fails:
   the mutant is killed by that test; if none fails it survived,
4. restores the file, always: on success, on an error, on SIGINT, SIGTERM
   or SIGHUP.

Before the first mutant every test used runs once on the unmutated tree and
must pass (a test that fails anyway kills nothing). At the end the targets
(all of them) are rebuilt from the restored sources, so the build
directory matches them.
A run that was killed outright (SIGKILL) leaves its backup behind; the next
run refuses to start until `--restore` has put the originals back.

Prints one table row per mutant and exits 0 only when every mutant applied,
built and was killed. Each test's output is kept in BUILD/mutation/logs.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = HERE / "mutants.toml"


@dataclass
class Test:
    name: str
    ctest: str
    about: str
    command: list[str]
    targets: list[str]


@dataclass
class Mutant:
    name: str
    bug_class: str
    file: str
    description: str
    anchor: str
    replacement: str
    tests: list[str]


@dataclass
class Outcome:
    mutant: Mutant
    status: str = "not run"  # killed, SURVIVED, BUILD FAILED, NOT APPLIED
    killed_by: list[str] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""


class Interrupted(Exception):
    """A signal asked the run to stop; the finally blocks restore."""


def load(path: Path) -> tuple[dict[str, Test], list[Mutant]]:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    tests = {name: Test(name, t["ctest"], t["about"], t["command"], t["targets"])
             for name, t in data.get("test", {}).items()}
    mutants = [Mutant(m["name"], m["class"], m["file"], m["description"],
                      m["anchor"], m["replacement"], m["tests"])
               for m in data.get("mutant", [])]
    problems = []
    names = [m.name for m in mutants]
    for m in mutants:
        if names.count(m.name) > 1:
            problems.append(f"{m.name}: the name is used twice")
        if not m.tests:
            problems.append(f"{m.name}: no test is named to kill it")
        for t in m.tests:
            if t not in tests:
                problems.append(f"{m.name}: unknown test '{t}'")
        if m.anchor == m.replacement:
            problems.append(f"{m.name}: the replacement equals the anchor")
    for name in tests:
        if not any(name in m.tests for m in mutants):
            problems.append(f"test '{name}' kills no mutant")
    if problems:
        raise SystemExit("mutate: " + path.name + ":\n  " + "\n  ".join(problems))
    return tests, mutants


def check_anchors(mutants: list[Mutant]) -> list[str]:
    """One line per mutant whose anchor is not exactly once in its file."""
    problems = []
    for m in mutants:
        source = REPO / m.file
        if not source.is_file():
            problems.append(f"{m.name}: {m.file} does not exist")
            continue
        count = source.read_text().count(m.anchor)
        if count != 1:
            first = m.anchor.strip().splitlines()[0] if m.anchor.strip() else ""
            problems.append(f"{m.name}: the anchor occurs {count} times in "
                            f"{m.file} (it begins '{first}')")
    return problems


class Backup:
    """The originals of the files being mutated, on disk, so that a run
    killed outright can be undone with --restore."""

    def __init__(self, build: Path):
        self.dir = build / "mutation" / "backup"
        self.manifest = self.dir / "manifest.json"

    def exists(self) -> bool:
        return self.manifest.exists()

    def save(self, rel: str):
        self.dir.mkdir(parents=True, exist_ok=True)
        original = (REPO / rel).read_bytes()
        (self.dir / "original").write_bytes(original)
        self.manifest.write_text(json.dumps({"file": rel}))

    def restore(self) -> str | None:
        """Puts the original back; returns the file restored, if any."""
        if not self.manifest.exists():
            return None
        rel = json.loads(self.manifest.read_text())["file"]
        target = REPO / rel
        original = (self.dir / "original").read_bytes()
        tmp = target.with_name(target.name + ".mutation-restore")
        tmp.write_bytes(original)
        os.replace(tmp, target)
        self.manifest.unlink()
        (self.dir / "original").unlink()
        return rel


def run(command: list[str], cwd: Path, log: Path, timeout: int) -> int:
    """Runs `command` in its own process group (killed with it on timeout or
    interruption); its output goes to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as out:
        out.write("$ " + " ".join(command) + "\n")
        out.flush()
        proc = subprocess.Popen(command, cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            status = proc.wait(timeout=timeout)
            out.write(f"\nmutate: exit status {status}\n")
            return status
        except subprocess.TimeoutExpired:
            out.write(f"\nmutate: timed out after {timeout} s\n")
            return -1
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


class Runner:
    def __init__(self, args, tests: dict[str, Test]):
        self.build = Path(args.build_dir).resolve()
        self.ninja = args.ninja
        self.lit = args.lit
        self.timeout = args.timeout
        self.tests = tests
        self.logs = self.build / "mutation" / "logs"

    def fresh_log(self, name: str) -> Path:
        """An empty log file; the build and the test of a step append to it."""
        log = self.logs / f"{name}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("")
        return log

    def command(self, t: Test) -> list[str]:
        return [c.replace("{lit}", self.lit) for c in t.command]

    def make(self, targets: list[str], log: Path) -> bool:
        return run([self.ninja, "-C", str(self.build)] + targets, REPO, log,
                   self.timeout) == 0

    def passes(self, t: Test, log: Path) -> bool:
        return run(self.command(t), self.build, log, self.timeout) == 0

    def baseline(self, names: list[str]) -> list[str]:
        """The tests that fail on the unmutated tree."""
        failing = []
        for name in names:
            t = self.tests[name]
            log = self.fresh_log(f"baseline.{name}")
            if not self.make(t.targets, log) or not self.passes(t, log):
                failing.append(f"{name} (see {log})")
            else:
                print(f"mutate: baseline: {name} passes", flush=True)
        return failing

    def mutant(self, m: Mutant, all_tests: bool, backup: Backup) -> Outcome:
        o = Outcome(m)
        start = time.monotonic()
        source = REPO / m.file
        text = source.read_text()
        if text.count(m.anchor) != 1:
            o.status = "NOT APPLIED"
            o.note = "the anchor is no longer exactly once in the file"
            return o
        backup.save(m.file)
        try:
            source.write_text(text.replace(m.anchor, m.replacement, 1))
            for name in m.tests:
                t = self.tests[name]
                log = self.fresh_log(f"{m.name}.{name}")
                if not self.make(t.targets, log):
                    o.status = "BUILD FAILED"
                    o.note = f"see {log}"
                    return o
                if not self.passes(t, log):
                    o.killed_by.append(name)
                    if not all_tests:
                        break
            o.status = "killed" if o.killed_by else "SURVIVED"
            return o
        finally:
            backup.restore()
            o.seconds = time.monotonic() - start


def table(outcomes: list[Outcome], tests: dict[str, Test]) -> str:
    rows = [("mutant", "class", "file", "result", "killed by (CI test)", "s")]
    for o in outcomes:
        killers = ", ".join(f"{k} ({tests[k].ctest})" for k in o.killed_by)
        rows.append((o.mutant.name, o.mutant.bug_class, o.mutant.file,
                     o.status, killers or o.note, f"{o.seconds:.0f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def on_signal(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] + " Mutates the sources of "
        "the repository it lives in, rebuilds and runs CI tests; see "
        "test/mutation/mutants.toml and docs/testing.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--build-dir", default=str(REPO / "build"),
                        help="the CMake/ninja build directory to rebuild and "
                             "test in (default: %(default)s)")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this mutant (repeatable)")
    parser.add_argument("--all-tests", action="store_true",
                        help="run every test a mutant names, not only up to "
                             "the first that kills it")
    parser.add_argument("--list", action="store_true",
                        help="list the mutants and their tests, check the "
                             "anchors, change nothing")
    parser.add_argument("--restore", action="store_true",
                        help="put back the original a run killed outright "
                             "left in BUILD/mutation/backup, then exit")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip running the tests on the unmutated tree "
                             "first")
    parser.add_argument("--ninja", default="ninja", help="ninja executable")
    parser.add_argument("--lit", default="/usr/lib/llvm-22/bin/lit",
                        help="lit executable (default: %(default)s)")
    parser.add_argument("--timeout", type=int, default=900,
                        help="seconds a build or a test may take "
                             "(default: %(default)s)")
    args = parser.parse_args()

    tests, mutants = load(DATA)
    if args.only:
        unknown = set(args.only) - {m.name for m in mutants}
        if unknown:
            raise SystemExit(f"mutate: no mutant named {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m.name in args.only]
    backup = Backup(Path(args.build_dir).resolve())

    if args.restore:
        rel = backup.restore()
        print(f"mutate: restored {rel}" if rel else "mutate: no backup to restore")
        return 0

    if backup.exists() and not args.list:
        print(f"mutate: a previous run left {backup.manifest}: its file may "
              f"still be mutated. Run `{sys.argv[0]} --restore` first.",
              file=sys.stderr)
        return 1
    problems = check_anchors(mutants)
    if args.list:
        for m in mutants:
            print(f"{m.name} ({m.bug_class}, {m.file}): {m.description}\n"
                  f"    killed by: {', '.join(m.tests)}")
        print("\ntests (ctest entry of the same check):")
        for t in dict.fromkeys(t for m in mutants for t in m.tests):
            print(f"{t} ({tests[t].ctest}): {tests[t].about}")
        for p in problems:
            print(f"mutate: ERROR {p}")
        return 1 if problems else 0
    if problems:
        print("\n".join(f"mutate: ERROR {p}" for p in problems), file=sys.stderr)
        print("mutate: re-anchor these mutants in test/mutation/mutants.toml",
              file=sys.stderr)
        return 1
    if not (Path(args.build_dir) / "build.ninja").exists():
        raise SystemExit(f"mutate: {args.build_dir} is no ninja build directory")

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    runner = Runner(args, tests)
    used = list(dict.fromkeys(t for m in mutants for t in m.tests))
    started = time.monotonic()
    outcomes: list[Outcome] = []
    try:
        if not args.no_baseline:
            failing = runner.baseline(used)
            if failing:
                print("mutate: ERROR these tests fail on the unmutated tree, so "
                      "they kill nothing:\n  " + "\n  ".join(failing),
                      file=sys.stderr)
                return 1
        for m in mutants:
            o = runner.mutant(m, args.all_tests, backup)
            outcomes.append(o)
            print(f"mutate: {m.name}: {o.status}"
                  + (f" by {', '.join(o.killed_by)}" if o.killed_by else "")
                  + f" ({o.seconds:.0f} s)", flush=True)
    except Interrupted as e:
        print(f"mutate: interrupted by {e}; the sources are restored",
              file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        backup.restore()
        # The build directory again matches the restored sources: every
        # target (not only those tested) that a mutated file went into.
        if not runner.make([], runner.fresh_log("rebuild")):
            print(f"mutate: ERROR the rebuild of the restored sources failed "
                  f"(see {runner.logs / 'rebuild.log'})", file=sys.stderr)
            outcomes.append(Outcome(Mutant("(rebuild)", "", "", "", "", "", []),
                                    "BUILD FAILED"))

    print()
    print(table(outcomes, tests))
    bad = [o for o in outcomes if o.status != "killed"]
    print(f"\nmutate: {len(outcomes) - len(bad)} of {len(outcomes)} mutant(s) "
          f"killed in {time.monotonic() - started:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
