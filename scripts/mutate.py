#!/usr/bin/env python3
"""Source mutation testing: does a test fail when the code is wrong?

Each mutant changes one operator at one place of a source file (a comparison made strict or
loose, a sign flipped, && and || swapped, min and max swapped, ...), is built, and the test
suite of the file's library runs against it (--suite names others, e.g. the command-line tests
that reach the file through clothfit). A mutant that no test notices ("survived") marks
code whose behaviour the tests do not pin down: either a missing test or an equivalent mutant
(one that cannot change a result, e.g. `<` against `<=` where equality never happens). The
survivors are for a person to read; the score alone says little.

The source tree is copied to SCRATCH/src and built in SCRATCH/build (Release, tests on, no
benchmarks), so the working tree is never modified and another build can run beside it. Every
outcome is appended to SCRATCH/report.tsv as it is known: an interrupted run keeps what it did.

--sanitize builds with AddressSanitizer and UndefinedBehaviorSanitizer instead (as
scripts/sanitize.sh does; default scratch build-mutate-sanitize/): a mutant that reads or writes
past an array, or overflows, is then killed by the report if a test reaches it, where a Release
run may survive it by luck. The report names the finding and the test that was running.

    scripts/mutate.py core/qp/active_set_solver.cpp                  # every site of one file
    scripts/mutate.py --sample 40 --seed 3 core/stepper/*.cpp        # 40 random sites
    scripts/mutate.py --list core/constraints/inextensibility_constraints.cpp
    scripts/mutate.py --sanitize --survivors-of build-mutate/report.tsv core/qp/*.cpp
    scripts/mutate.py --suite fitting_tests,apps_tests --sample 30 fitting/svg_plot.cpp

Needs python3 (Debian package python3) besides what scripts/setup.sh installs.
"""

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (name, pattern, replacement). Binary operators are matched with the spaces clang-format puts
# around them, which keeps template brackets, includes, pointers and unary minus out.
OPERATORS = [
    ("relational", r" < ", " <= "),
    ("relational", r" <= ", " < "),
    ("relational", r" > ", " >= "),
    ("relational", r" >= ", " > "),
    ("equality", r" == ", " != "),
    ("equality", r" != ", " == "),
    ("logical", r" && ", " || "),
    ("logical", r" \|\| ", " && "),
    ("arithmetic", r" \+ ", " - "),
    ("arithmetic", r" - ", " + "),
    ("arithmetic", r" \* ", " / "),
    ("arithmetic", r" / ", " * "),
    ("assignment", r" \+= ", " -= "),
    ("assignment", r" -= ", " += "),
    ("min-max", r"\bstd::min\b", "std::max"),
    ("min-max", r"\bstd::max\b", "std::min"),
    ("boolean", r"\btrue\b", "false"),
    ("boolean", r"\bfalse\b", "true"),
]

SUITE_OF_FOLDER = {"core": "core_tests", "mocap": "mocap_tests", "fitting": "fitting_tests",
                   "apps": "apps_tests"}


@dataclass
class Mutant:
    path: str  # relative to the source root
    line: int  # 1-based
    column: int  # 1-based, of the operator's first character after its leading space
    kind: str
    before: str
    after: str
    mutated_line: str


def code_part(line):
    """The line with string/char literals blanked and a // comment cut, the same length up to
    the cut, so that positions in it are positions in the line."""
    out = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c in "\"'":
            quote = c
            out.append(c)
            i += 1
            while i < n and line[i] != quote:
                if line[i] == "\\" and i + 1 < n:
                    out.append("  ")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            if i < n:
                out.append(quote)
                i += 1
            continue
        if line.startswith("//", i):
            break
        out.append(c)
        i += 1
    return "".join(out)


def mutants_of(relpath):
    text = (ROOT / relpath).read_text()
    result = []
    in_block_comment = False
    open_assert = 0  # unclosed parentheses of an assert( that goes on (compiled out in Release)
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if open_assert > 0 or stripped.startswith("assert("):
            code = code_part(line)
            open_assert += code.count("(") - code.count(")")
            continue
        if in_block_comment:
            if "*/" in stripped:
                in_block_comment = False
            continue
        if stripped.startswith("/*"):
            in_block_comment = "*/" not in stripped
            continue
        if (not stripped or stripped.startswith(("#", "//", "static_assert"))
                or "operator" in stripped):
            continue
        code = code_part(line)
        for kind, pattern, replacement in OPERATORS:
            for match in re.finditer(pattern, code):
                start, end = match.span()
                mutated = line[:start] + replacement + line[end:]
                column = start + len(match.group(0)) - len(match.group(0).lstrip()) + 1
                result.append(Mutant(relpath, number, column, kind, match.group(0).strip(),
                                     replacement.strip(), mutated))
    return result


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def copy_tree(src_root):
    """Makes src_root a copy of the working tree (no build folders, no .git), writing only the
    files that differ so that the scratch build stays incremental from one run to the next."""
    def skipped(relative):
        top = relative.parts[0] if relative.parts else ""
        return top.startswith("build") or top in (".git", "out")

    wanted = set()
    for directory, subdirectories, names in os.walk(ROOT):
        base = Path(directory)
        if base == ROOT:  # the build folders hold far more files than the tree: not walked
            subdirectories[:] = [d for d in subdirectories if not skipped(Path(d))]
        for name in names:
            path = base / name
            relative = path.relative_to(ROOT)
            if skipped(relative) or not path.is_file():
                continue
            wanted.add(relative)
            copy_if_changed(path, src_root / relative)
    for path in list(src_root.rglob("*")):
        if path.is_file() and path.relative_to(src_root) not in wanted:
            path.unlink()


def copy_if_changed(path, target):
    data = path.read_bytes()
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        shutil.copymode(path, target)


# The options scripts/sanitize.sh runs CI's sanitized suites with.
SANITIZER_OPTIONS = {
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1:check_initialization_order=1:"
                    "strict_init_order=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def sanitizer_finding(output):
    """The first sanitizer report in a test's output, e.g. 'AddressSanitizer:
    heap-buffer-overflow' or 'runtime error: signed integer overflow', or ''."""
    match = re.search(r"(AddressSanitizer|LeakSanitizer): ([\w-]+)", output)
    if match:
        return f"{match.group(1)}: {match.group(2)}"
    match = re.search(r"runtime error: (.*)", output)
    if match:
        return "runtime error: " + match.group(1).strip()[:80]
    return ""


def run_suite(binary, jobs, timeout, test_filter):
    """Runs the GoogleTest binary in `jobs` shards, each stopping at its first failure; stops the
    other shards as soon as one fails. Returns (passed, failed test names or reason)."""
    environment = dict(os.environ, GTEST_TOTAL_SHARDS=str(jobs))
    for name, value in SANITIZER_OPTIONS.items():
        environment[name] = value + (":" + os.environ[name] if os.environ.get(name) else "")
    processes = []
    for index in range(jobs):
        shard_env = dict(environment, GTEST_SHARD_INDEX=str(index))
        command = [str(binary), "--gtest_fail_fast"]
        if test_filter:
            command.append(f"--gtest_filter={test_filter}")
        processes.append(subprocess.Popen(command,
                                          env=shard_env, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True,
                                          start_new_session=True))
    deadline = time.monotonic() + timeout
    failures = []
    pending = list(processes)
    while pending:
        for process in list(pending):
            if process.poll() is None:
                continue
            pending.remove(process)
            output = process.stdout.read()
            if process.returncode != 0:
                finding = sanitizer_finding(output)
                if finding:  # the sanitizer stopped the process in the test that started last
                    running = re.findall(r"^\[ RUN      \] (\S+)", output, re.MULTILINE)
                    failures.append(finding + (f" in {running[-1]}" if running else ""))
                else:
                    names = re.findall(r"^\[  FAILED  \] (\S+)", output, re.MULTILINE)
                    failures.append(names[0] if names else f"exit {process.returncode}")
        if failures or time.monotonic() > deadline:
            if not failures:
                failures.append(f"timeout after {timeout:.0f} s")
            for process in pending:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            break
        time.sleep(0.05)
    return (not failures), ", ".join(failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("files", nargs="+", help="source files, relative to the repository root")
    parser.add_argument("--sample", type=int, default=0,
                        help="test this many sites drawn at random (default: every site)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    parser.add_argument("--kinds", default="",
                        help="comma-separated operator kinds to use (default: all: "
                        + ", ".join(sorted({k for k, _, _ in OPERATORS})) + ")")
    parser.add_argument("--suite", default="",
                        help="GoogleTest target(s) to run, comma-separated, in turn until one "
                        "fails (default: the suite of the files' folder); e.g. "
                        "fitting_tests,apps_tests also runs the command-line tests")
    parser.add_argument("--filter", default="",
                        help="GoogleTest filter of the tests to run (default: all of the suite); "
                        "a survivor then says only that these tests miss it")
    parser.add_argument("--scratch", default="",
                        help="folder for the copied sources, the build and report.tsv "
                        "(default build-mutate/, with --sanitize build-mutate-sanitize/)")
    parser.add_argument("--sanitize", action="store_true",
                        help="build with AddressSanitizer and UndefinedBehaviorSanitizer "
                        "(RelWithDebInfo): out-of-bounds accesses a test reaches kill the mutant")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel build jobs and test shards (default: the core count)")
    parser.add_argument("--timeout-factor", type=float, default=3.0,
                        help="a mutant's tests time out after this many times the unmutated "
                        "run's time (default 3)")
    parser.add_argument("--survivors-of", metavar="REPORT",
                        help="test again only the mutants of FILES that survived in this "
                        "report.tsv (after new tests, say)")
    parser.add_argument("--list", action="store_true", help="print the sites and exit")
    args = parser.parse_args()

    files = [str(Path(f).resolve().relative_to(ROOT)) if Path(f).is_absolute() else f
             for f in args.files]
    for f in files:
        if not (ROOT / f).is_file():
            parser.error(f"{f}: no such file under {ROOT}")
    kinds = {k for k in args.kinds.split(",") if k}
    unknown = kinds - {k for k, _, _ in OPERATORS}
    if unknown:
        parser.error(f"--kinds: unknown kind(s) {', '.join(sorted(unknown))}")
    suites = [s for s in args.suite.split(",") if s]
    if not suites:
        folders = {SUITE_OF_FOLDER.get(Path(f).parts[0]) for f in files}
        if len(folders) != 1 or None in folders:
            parser.error("the files span several libraries (or none): name the test target "
                         "with --suite")
        suites = [folders.pop()]

    mutants = [m for f in files for m in mutants_of(f) if not kinds or m.kind in kinds]
    if args.survivors_of:
        survived = set()
        with open(args.survivors_of) as report_file:
            for row in report_file.read().splitlines()[1:]:
                fields = row.split("\t")
                if len(fields) >= 7 and fields[6] == "survived":
                    survived.add((fields[0], int(fields[1]), int(fields[2]), fields[4], fields[5]))
        mutants = [m for m in mutants
                   if (m.path, m.line, m.column, m.before, m.after) in survived]
    if args.sample and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample),
                         key=lambda m: (m.path, m.line, m.column))
    if args.list:
        for m in mutants:
            print(f"{m.path}:{m.line}:{m.column}\t{m.kind}\t{m.before} -> {m.after}\t"
                  f"{m.mutated_line.strip()}")
        print(f"{len(mutants)} mutants", file=sys.stderr)
        return 0
    if not mutants:
        print("mutate: no mutation site in those files", file=sys.stderr)
        return 0

    scratch = Path(args.scratch or ROOT / ("build-mutate-sanitize" if args.sanitize
                                           else "build-mutate")).resolve()
    src, build = scratch / "src", scratch / "build"
    scratch.mkdir(parents=True, exist_ok=True)
    print(f"mutate: copying the sources to {src}", file=sys.stderr)
    copy_tree(src)
    shared = (ROOT.parent / "shared").resolve()
    # --sanitize: the compiler and flags of scripts/sanitize.sh (clang unless CXX says otherwise).
    build_type = ["-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCLOTHFIT_SANITIZE=ON",
                  f"-DCMAKE_CXX_COMPILER={os.environ.get('CXX') or 'clang++'}",
                  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"] \
        if args.sanitize else ["-DCMAKE_BUILD_TYPE=Release", "-DCLOTHFIT_SANITIZE=OFF"]
    configure = run(["cmake", "-S", str(src), "-B", str(build), *build_type,
                     "-DCLOTHFIT_BUILD_TESTS=ON", "-DCLOTHFIT_BUILD_BENCH=OFF",
                     f"-DCLOTHFIT_SHARED_DIR={shared}"])
    if configure.returncode != 0:
        print(configure.stdout, file=sys.stderr)
        return 1
    build_cmd = ["cmake", "--build", str(build), "-j", str(args.jobs), "--target", *suites]
    if "apps_tests" in suites:
        build_cmd += ["clothfit"]
    print(f"mutate: building {', '.join(suites)} unmutated", file=sys.stderr)
    built = run(build_cmd)
    if built.returncode != 0:
        print(built.stdout[-4000:], file=sys.stderr)
        return 1
    timeouts = {}  # suite -> seconds
    for suite in suites:
        start = time.monotonic()
        passed, why = run_suite(build / "tests" / suite, args.jobs, 24 * 3600, args.filter)
        baseline = time.monotonic() - start
        if not passed:
            print(f"mutate: the unmutated {suite} fails ({why}); fix that first",
                  file=sys.stderr)
            return 1
        timeouts[suite] = max(30.0, args.timeout_factor * baseline)
        print(f"mutate: {suite} passes unmutated in {baseline:.0f} s; timeout "
              f"{timeouts[suite]:.0f} s", file=sys.stderr)
    print(f"mutate: {len(mutants)} mutants", file=sys.stderr)

    def run_suites():
        """Runs the suites in turn until one fails; returns (passed, failed tests or reason)."""
        for suite in suites:
            passed, by = run_suite(build / "tests" / suite, args.jobs, timeouts[suite],
                                   args.filter)
            if not passed:
                return False, by
        return True, ""

    tests = ",".join(suites) + (f" --gtest_filter={args.filter}" if args.filter else "")
    report = scratch / "report.tsv"
    new_report = not report.exists()
    counts = {"killed": 0, "survived": 0, "does not compile": 0}
    survivors = []
    with report.open("a") as out:
        if new_report:
            out.write("file\tline\tcolumn\tkind\tbefore\tafter\toutcome\tby\tseconds\ttests\n")
        for index, m in enumerate(mutants, start=1):
            target = src / m.path
            original = target.read_text()
            lines = original.split("\n")
            lines[m.line - 1] = m.mutated_line
            began = time.monotonic()
            try:
                target.write_text("\n".join(lines))
                built = run(build_cmd)
                if built.returncode != 0:
                    outcome, by = "does not compile", ""
                else:
                    passed, by = run_suites()
                    outcome = "survived" if passed else "killed"
            finally:
                target.write_text(original)
            seconds = time.monotonic() - began
            counts[outcome] += 1
            if outcome == "survived":
                survivors.append(m)
            out.write(f"{m.path}\t{m.line}\t{m.column}\t{m.kind}\t{m.before}\t{m.after}\t"
                      f"{outcome}\t{by}\t{seconds:.0f}\t{tests}\n")
            out.flush()
            print(f"[{index}/{len(mutants)}] {m.path}:{m.line}:{m.column} '{m.before}' -> "
                  f"'{m.after}': {outcome}{' by ' + by if by else ''} ({seconds:.0f} s)",
                  file=sys.stderr, flush=True)
    # Leave the scratch build matching the sources for the next run.
    run(build_cmd)
    tested = counts["killed"] + counts["survived"]
    print(f"mutate: {counts['killed']} killed, {counts['survived']} survived, "
          f"{counts['does not compile']} did not compile"
          + (f"; {100.0 * counts['killed'] / tested:.0f} % of those that built were killed"
             if tested else ""))
    for m in survivors:
        print(f"survived: {m.path}:{m.line}: {m.before} -> {m.after}: {m.mutated_line.strip()}")
    print(f"mutate: every outcome is in {report}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
