"""``pizarra build | serve | check``: argument parsing and reporting only."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra import BUNDLED
from pizarra.cli.authoring import help_command, import_command, init_command
from pizarra.cli.progress import Progress

if TYPE_CHECKING:
    from pizarra.base.cache import Cache
    from pizarra.pipeline.tools import Report, Tools

DEFAULT_OUT = Path("_site")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if hasattr(args, "src"):
        src = source_of(args.src, args.example, args.command)
        if src is None:
            return 2
        args.src = src
    command: int = args.run(args)
    return command


def source_of(given: Path | None, example: bool, command: str) -> Path | None:
    """What a run works on: SRC when given; the bundled course with ``--example``; else
    the current folder when it holds a ``course.yaml``. None (after saying why) when
    there is nothing to work on, rather than silently the bundled course."""
    if example:
        if given is not None:
            print(f"pizarra {command}: give SRC or --example, not both", file=sys.stderr)
            return None
        return BUNDLED
    if given is not None:
        return given
    if (Path.cwd() / "course.yaml").is_file():
        return Path(".")
    print(
        f"pizarra {command}: no course here: this folder has no course.yaml\n"
        f"  hint: give a course folder or a lesson .md file (pizarra {command} SRC), "
        f"start one with `pizarra init`, or try the bundled course: "
        f"pizarra {command} --example",
        file=sys.stderr,
    )
    return None


YOUNG_COLLECTION = 200_000
"""Allocations between two collections of the garbage collector's young generation
(Python's default is 700)."""


def run() -> None:
    """The ``pizarra`` command: :func:`main`, then exit.

    A build makes a large object graph that lives as long as the run (the parsed
    course, its tokens and pages) and few reference cycles. A cold 20-lesson build
    spends 0.13 s of CPU in the garbage collector with Python's default thresholds,
    0.06 s with 10,000 allocations between collections, none with
    :data:`YOUNG_COLLECTION`, for the same peak memory. Python's shutdown would
    walk the graph once more (another 0.06 s), for objects that are about to go anyway:
    :func:`gc.freeze` leaves them to reference counting alone. Not in :func:`main`,
    which tests call within one long process.
    """
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    code = main()
    gc.freeze()
    sys.exit(code)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pizarra",
        description="Publish interactive, verified math lessons as a static site.",
    )
    parser.add_argument("--version", action="version", version=f"pizarra {_version()}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND", dest="command")

    def source(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "src",
            nargs="?",
            type=Path,
            default=None,
            metavar="SRC",
            help="a course folder (with course.yaml) or one lesson .md file "
            "(default: the current folder, when it holds a course.yaml)",
        )
        sub.add_argument(
            "--example",
            action="store_true",
            help="work on the bundled example course, Math for AI",
        )
        sub.add_argument(
            "--strict", action="store_true", help="treat warnings (an uncited source...) as errors"
        )
        sub.add_argument(
            "--strict-claims",
            action="store_true",
            help="treat every statement pizarra cannot decide as an error",
        )
        sub.add_argument(
            "--no-cache",
            action="store_true",
            help="re-run every code cell and re-check every claim, ignoring caches",
        )

    b = commands.add_parser("build", help="check the course and write the static site")
    source(b)
    b.add_argument(
        "-o", "--out", type=Path, default=DEFAULT_OUT, help="output folder (default: ./_site)"
    )
    b.set_defaults(run=_build)

    s = commands.add_parser(
        "serve", help="build, serve on 127.0.0.1, rebuild on change and reload the page"
    )
    source(s)
    s.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    s.set_defaults(run=_serve)

    c = commands.add_parser("check", help="parse and verify the course without writing a site")
    source(c)
    c.add_argument(
        "--update-outputs",
        action="store_true",
        help="rewrite each {output} block with what its code cell really prints",
    )
    c.add_argument(
        "--claims",
        action="store_true",
        help="list every math statement with its position and status "
        "(checked, assumed or unchecked with the reason, failed)",
    )
    c.set_defaults(run=_check)

    h = commands.add_parser("help", help="read a guide for authors: pizarra help [TOPIC]")
    h.add_argument("topic", nargs="?", metavar="TOPIC", help="authoring, explorers or math")
    h.set_defaults(run=help_command)

    n = commands.add_parser("init", help="start a course: a small one that builds at once")
    n.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("."),
        metavar="FOLDER",
        help="where to write it (default: the current folder)",
    )
    n.set_defaults(run=init_command)

    i = commands.add_parser(
        "import",
        help="turn a Jupyter notebook or MyST file into a lesson, or a Jupyter Book into a course",
    )
    i.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help="a .ipynb or .md file, or a book folder (with _toc.yml or myst.yml)",
    )
    i.add_argument(
        "-o",
        "--out",
        type=Path,
        default=None,
        help="where to write the lesson (default: stdout), or the new course folder for a book",
    )
    i.add_argument("--lesson", type=int, default=1, help="its number in the course (default: 1)")
    i.add_argument("--lang", default="en", help="its language (default: en)")
    i.add_argument(
        "--bib",
        action="append",
        default=[],
        metavar="FILE.bib",
        help="a BibTeX file for {cite}, as a path from the lesson (repeatable)",
    )
    i.add_argument(
        "--pin-outputs",
        action="store_true",
        help="keep a notebook's saved outputs as {output} blocks that every build checks "
        "(default: the page shows what each cell prints when built)",
    )
    i.set_defaults(run=import_command)

    tr = commands.add_parser(
        "translate", help="record that a translation is in step with its original"
    )
    tr.add_argument("files", nargs="+", type=Path, metavar="FILE", help="translation .md files")
    tr.add_argument(
        "--sync",
        action="store_true",
        required=True,
        help="write the original's current version into each translation (after the "
        "parity check passes)",
    )
    tr.set_defaults(run=_translate)
    return parser


def _translate(args: argparse.Namespace) -> int:
    from pizarra.pipeline.translate import sync_translation

    failed = False
    for path in args.files:
        problems = sync_translation(path)
        for problem in problems:
            print(problem.format(), file=sys.stderr)
        failed = failed or bool(problems)
        if not problems:
            print(f"pizarra translate: {path} follows its original as it is now", file=sys.stderr)
    return 1 if failed else 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pizarra")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def default_tools(
    no_cache: bool = False, store: Cache | None = None, progress: bool = True, early: bool = True
) -> Tools:
    from pizarra.base.cache import default_cache
    from pizarra.check.code_cells import ResultCache
    from pizarra.check.kernel.execute import KernelRunner
    from pizarra.check.verdicts import VerdictCache
    from pizarra.math.mathml import MathCoreRenderer
    from pizarra.pipeline.tools import Tools

    line = Progress() if progress and sys.stderr.isatty() else None
    if no_cache:
        return Tools(MathCoreRenderer(), KernelRunner(), None, None, progress=line)
    store = store if store is not None else default_cache()
    return Tools(
        MathCoreRenderer(),
        KernelRunner(early=early),
        ResultCache(store),
        VerdictCache(store),
        store,
        progress=line,
    )


def _tools_for(
    src: Path, no_cache: bool, store: Cache | None = None, rebuild: bool = False
) -> Tools:
    """:func:`default_tools` for a run on ``src``, the kernels' zygote started first so
    that it imports on another core while this process imports the pipeline, and
    pizarra's fingerprint computed meanwhile
    (:func:`pizarra.pipeline.fingerprint.fingerprint_soon`). In a ``rebuild`` the zygote
    starts only once a cell must run (:attr:`KernelRunner.early`)."""
    from pizarra.check.kernel.start import start_zygote
    from pizarra.pipeline.fingerprint import fingerprint_soon

    if not rebuild:
        start_zygote(src)
    fingerprint_soon()
    return default_tools(no_cache, store, early=not rebuild)


def _check(args: argparse.Namespace) -> int:
    from pizarra.pipeline.build import verify

    tools = _tools_for(args.src, args.no_cache)
    report = verify(args.src, tools, args.strict_claims, outlines=not args.update_outputs)
    if args.update_outputs:
        from pizarra.pipeline.update import write_updated_outputs

        changed, unstable = write_updated_outputs(report, tools.runner)
        for path in changed:
            print(f"pizarra: updated the outputs in {path}", file=sys.stderr)
        if changed:
            report = verify(args.src, tools, args.strict_claims)
        known = {(d.pos, d.message) for d in report.diagnostics}
        report.diagnostics += [d for d in unstable if (d.pos, d.message) not in known]
        report.diagnostics.sort(key=lambda d: (d.pos, d.message))
    if args.claims:
        _print_claims(report)
    _print_report(report, "check", args.strict)
    return 1 if report.failed(args.strict) else 0


def _build(args: argparse.Namespace) -> int:
    from pizarra.base.cache import default_cache
    from pizarra.pipeline.manifest import Summary
    from pizarra.pipeline.skip import build_or_skip

    store = None if args.no_cache else default_cache()
    try:
        done = build_or_skip(
            args.src,
            args.out,
            lambda rebuild: _tools_for(args.src, args.no_cache, store, rebuild),
            store,
            args.strict,
            args.strict_claims,
        )
    except Exception as exc:
        from pizarra.site.write import SiteWriteError  # not imported when nothing changed

        if not isinstance(exc, SiteWriteError):
            raise
        print(f"pizarra build: {exc}", file=sys.stderr)
        return 1
    finally:
        if store is not None:
            store.close()
    if isinstance(done, Summary):
        for line in done.lines:
            print(line, file=sys.stderr)
        print(done.line("build"), file=sys.stderr)
        print(f"pizarra build: nothing changed; the site in {args.out} is current", file=sys.stderr)
        return 0
    _print_report(done, "build", args.strict)
    if done.failed(args.strict):
        left = "left untouched" if args.out.exists() else "not created"
        print(f"pizarra build: failed; the site in {args.out} was {left}.", file=sys.stderr)
        return 1
    print(f"pizarra build: wrote {len(done.files)} files to {args.out}", file=sys.stderr)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from pizarra.serve.app import serve

    if not 0 < args.port < 65536:
        print(f"pizarra serve: invalid port {args.port}", file=sys.stderr)
        return 2
    tools = default_tools(args.no_cache, progress=False)  # the server prints its own lines
    return serve(args.src, args.port, tools, args.strict, args.strict_claims)


def _print_claims(report: Report) -> None:
    """``check --claims``: every statement, on stdout, so it can be piped and filtered."""
    from pizarra.check.ledger import claim_lines

    for ledger in report.ledgers.values():
        for line in claim_lines(ledger):
            print(line)


def _print_report(report: Report, command: str, strict: bool) -> None:
    from pizarra.pipeline.manifest import report_lines

    if sys.stderr.isatty():  # the progress line, if any, gives way to the report
        sys.stderr.write("\r\033[K")
    if strict:
        known = {(d.pos, d.message) for d in report.diagnostics}
        report.diagnostics += [d for d in report.unpinned() if (d.pos, d.message) not in known]
        report.diagnostics.sort(key=lambda d: (d.pos, d.message))
    for line in report_lines(report):
        print(line, file=sys.stderr)
    print(summary(report, command), file=sys.stderr)


def summary(report: Report, command: str) -> str:
    """One closing paragraph: lessons, claims, cells, errors, time."""
    from pizarra.pipeline.manifest import summary_of

    return summary_of(report).line(command)


if __name__ == "__main__":
    sys.exit(main())
