"""The ``ccreport`` command: build, check, new, serve, verify.

Bad input (manifest, data, templates, the output folder) and problems of the environment (a
folder that cannot be written, a full disk, a busy port) are printed one problem per line as
``file:line: field: expected ...`` and the command exits with status 2, without a traceback and
without touching the previous build output. Ctrl-C prints one line and exits with 130. Anything
else is a bug: one line names the log file holding the traceback, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import NoReturn

from .commands import PORT_MAX, PORT_MIN  # not .serve: http.server only when serving
from .errors import CCReportError, Problem, UserInputError
from .runtime.collector import leave_garbage_to_exit
from .runtime.interrupts import EXIT_INTERRUPTED, caused_by_interrupt
from .tasks.cache import DEFAULT_FOLDER as DEFAULT_CACHE
from .tasks.executors import DEFAULT_WORKERS_CAP
from .version import __version__

DESCRIPTION = """\
ccreport turns a project manifest (ccreport.toml) into a cost-curve analysis report of binary
classifiers: results.json, a static HTML site and a PDF (Drummond & Holte 2006, "Cost curves").

Quick start:
  ccreport new myproject        # a working starter project with synthetic data
  ccreport build myproject      # analyse and write myproject/site/
                                # (index.html, report.pdf, results.json)
  ccreport serve myproject      # preview the built site on http://127.0.0.1:8000
"""

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1
EXIT_DIFFERENT = 1  # ccreport verify: the report differs from a rebuild


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line (``ccreport build: -j: ...``), exit status 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _int_in(low: int, high: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {what}, an integer from {low} to {high}, got {text[:40]!r}"
            ) from None
        if not low <= value <= high:
            shown = text if len(text) <= 20 else f"an integer of {len(text)} digits"
            raise argparse.ArgumentTypeError(
                f"expected {what}, an integer from {low} to {high}, got {shown}"
            )
        return value

    return parse


def _add_build(sub):
    from .project.manifest import MAX_WORKERS

    p = sub.add_parser(
        "build",
        help="analyse the project and write the report",
        description="Validate the manifest and data, run every analysis, and write results.json, "
        "the HTML site and report.pdf into the output folder (default: PROJECT_DIR/site). The "
        "previous output is replaced only when the whole build succeeds. The output folder must be "
        "a folder of its own: never the project folder, a parent of it or a folder holding inputs; "
        "an existing folder is replaced only if ccreport wrote it (or with --force).",
    )
    p.add_argument(
        "project",
        nargs="?",
        default=".",
        metavar="PROJECT_DIR",
        help="folder holding ccreport.toml (default: .)",
    )
    p.add_argument(
        "-o", "--output", metavar="OUT", help="output folder (default: PROJECT_DIR/site)"
    )
    p.add_argument(
        "-j",
        "--workers",
        type=_int_in(1, MAX_WORKERS, "a worker count"),
        metavar="N",
        help=f"worker processes for the analyses and figures, 1 to {MAX_WORKERS} (default: the "
        f"manifest's, else one per core, at most {DEFAULT_WORKERS_CAP}); clamped to the task "
        "count and the machine's cores; results do not depend on it",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the analyses on a Dask distributed cluster: the address of its scheduler, e.g. "
        "tcp://10.0.0.5:8786 (default: the manifest's scheduler, else this machine); needs "
        "ccreport[cluster] here and the same ccreport on every worker; results do not depend on "
        "it",
    )
    p.add_argument("--no-pdf", action="store_true", help="skip report.pdf (faster previews)")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing OUT that is not a ccreport output (never the project or its "
        "inputs)",
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress display (none is drawn when not on a terminal or when CI is set)",
    )
    p.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"folder of the task cache (default: PROJECT_DIR/{DEFAULT_CACHE})",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="recompute every task; neither read nor write the cache",
    )


def _parser() -> argparse.ArgumentParser:
    from .project.manifest import MAX_WORKERS

    parser = _Parser(
        prog="ccreport",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"ccreport {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    _add_build(sub)
    p = sub.add_parser(
        "check",
        help="validate everything a build would, without building",
        description="Report every problem a build would meet because of its input - the "
        "manifest, the data files, narratives, the theme, the output folder, and the project's "
        "own templates (rendered once on the project's data) - then exit (status 2 if any).",
    )
    p.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="the output folder a build would use (default: PROJECT_DIR/site)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="as for build: accept an OUT that is not a ccreport output",
    )
    p = sub.add_parser(
        "new",
        help="create a starter project",
        description="Create a working starter project (manifest, synthetic data, narrative) in a "
        "new folder.",
    )
    p.add_argument("directory", metavar="DIR")
    p = sub.add_parser(
        "serve",
        help="preview the site on localhost, rebuilding on change",
        description="Serve the built site (PROJECT_DIR/site or -o OUT) on 127.0.0.1, only its "
        "own files. While serving, a change to the project's files rebuilds the site (without "
        "the PDF unless the site has one) and open pages reload themselves. Build first.",
    )
    p.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR")
    p.add_argument("-o", "--output", metavar="OUT")
    p.add_argument(
        "--port",
        type=_int_in(PORT_MIN, PORT_MAX, "a TCP port"),
        default=8000,
        help="port on 127.0.0.1 (default: 8000)",
    )
    p.add_argument("--no-watch", action="store_true", help="serve only: do not rebuild on change")
    p = sub.add_parser(
        "verify",
        help="check that an archived report still follows from its inputs",
        description="Rebuild REPORT - a built output folder, or a report.pdf on its own (its "
        "attached inputs are used) - in a temporary folder with the recorded settings and date, "
        "and compare every value of results.json and every output file. Inputs are checked "
        "against their recorded SHA-256. Exit 0 when all match, 1 listing each difference, 2 "
        "when REPORT cannot be used.",
    )
    p.add_argument(
        "report", metavar="REPORT", help="an output folder (holding results.json) or a report.pdf"
    )
    p.add_argument(
        "--project",
        metavar="PROJECT_DIR",
        help="for a folder: the project it was built from "
        "(default: as recorded in the folder's invocation.json, else the folder's parent)",
    )
    p.add_argument(
        "-j",
        "--workers",
        type=_int_in(1, MAX_WORKERS, "a worker count"),
        metavar="N",
        help="worker processes for the rebuild (default: the manifest's, else one per core, at "
        f"most {DEFAULT_WORKERS_CAP}; results do not depend on it)",
    )
    return parser


def _output(args) -> Path:
    """The output folder: ``-o`` as given, else ``site`` beside the manifest (as :func:`build` picks
    it), relative to the working folder when inside it."""
    from .project.manifest import display_path
    from .runtime.output_folder import output_folder

    return Path(args.output) if args.output else Path(display_path(output_folder(args.project)))


def _cache_dir(args) -> Path | None:
    from .project.manifest import manifest_path_of

    if args.no_cache:
        return None
    return (
        Path(args.cache_dir)
        if args.cache_dir
        else manifest_path_of(args.project).parent / DEFAULT_CACHE
    )


def _build(args) -> int:
    from .commands.build import build
    from .runtime import progress

    started = time.perf_counter()
    with progress.showing(progress.wanted(args.quiet)):
        results = build(
            args.project,
            args.output,
            workers=args.workers,
            pdf=not args.no_pdf,
            force=args.force,
            cache_dir=_cache_dir(args),
            command_line=args.command_line,
            scheduler=args.scheduler,
        )
    out = _output(args)
    n_classifiers = sum(len(d.classifiers) for d in results.datasets.values())
    print(
        f"built {out} in {time.perf_counter() - started:.1f} s: {len(results.datasets)} datasets, "
        f"{n_classifiers} classifier evaluations, {len(results.priors)} priors"
    )
    return 0


def _check(args) -> int:
    from .project.preflight import preflight

    project, datasets = preflight(args.project, args.output, force=args.force)
    print(
        f"{project.manifest_path}: ok ({len(datasets)} datasets, {len(project.classifiers)} "
        f"classifiers, {len(project.priors)} priors)"
    )
    return 0


def _new(args) -> int:
    from .project.starter import create_starter

    root = create_starter(args.directory)
    print(f"created {root}; now run: ccreport build {root}")
    return 0


def _serve(args) -> int:
    from .commands.serve import serve
    from .project.manifest import manifest_path_of

    root = _output(args)
    if not (root / "index.html").is_file():
        raise UserInputError(
            Problem(
                str(root), "site", "expected a built site (index.html); run ccreport build first"
            )
        )
    if args.no_watch:
        serve(root, args.port)
        return 0
    project_root = manifest_path_of(args.project).parent

    def rebuild() -> bool:
        from .commands.build import build

        started = time.perf_counter()
        try:
            build(
                args.project,
                args.output,
                pdf=(root / "report.pdf").is_file(),
                cache_dir=project_root / DEFAULT_CACHE,
            )
        except UserInputError as error:
            _print_problems(error)
            return False
        except Exception:  # a bug in a rebuild must not stop the preview
            _internal_error()
            return False
        print(f"rebuilt {root} in {time.perf_counter() - started:.1f} s", flush=True)
        return True

    serve(root, args.port, project_root, rebuild)
    return 0


def _verify(args) -> int:
    from .commands.verify import UnusableReport, verify

    try:
        found = verify(args.report, args.project, workers=args.workers)
    except UnusableReport as error:  # one line, exit 2 (the rebuild's problems: the usual lines)
        print(str(error), file=sys.stderr)
        return EXIT_BAD_INPUT
    for line in found.report_lines():  # notes, then the differences (summarised when many)
        print(line)
    if found.ok:
        print(
            f"verified {args.report}: {found.compared_values} values of results.json and "
            f"{found.compared_files} files match a rebuild from its inputs"
        )
        return 0
    print(
        f"ccreport verify: {len(found.differences)} "
        f"difference{'s' if len(found.differences) != 1 else ''} between {args.report} and a "
        "rebuild from its inputs",
        file=sys.stderr,
    )
    return EXIT_DIFFERENT


COMMANDS = {"build": _build, "check": _check, "new": _new, "serve": _serve, "verify": _verify}


def _print_problems(error: UserInputError) -> None:
    for problem in error.problems:
        print(str(problem), file=sys.stderr)
    count = len(error.problems)
    print(
        f"ccreport: {count} problem{'s' if count != 1 else ''} found; nothing was written",
        file=sys.stderr,
    )


def _internal_error() -> Path | None:
    """Write the current exception's traceback to a log file; print one line naming it."""
    text = f"ccreport {__version__} {' '.join(sys.argv)}\n" + traceback.format_exc()
    try:
        fd, name = tempfile.mkstemp(prefix="ccreport-error-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        where = f"the traceback is in {name}"
    except OSError:
        name, where = None, "the traceback could not be saved"
    kind = sys.exc_info()[0].__name__ if sys.exc_info()[0] else "error"
    print(
        f"ccreport: internal error ({kind}), a bug in ccreport; {where}; please report it",
        file=sys.stderr,
    )
    return None if name is None else Path(name)


ONE_SHOT = {"build", "check", "new", "verify"}  # commands after which the process ends (not serve)


def main(argv: list[str] | None = None, process_ends: bool = False) -> int:
    """Run one command; its exit status. ``process_ends``: the process exits when this returns
    (:func:`run`), so a one-shot command leaves its output stages' garbage to the exit
    (:func:`ccreport.runtime.collector.leave_garbage_to_exit`)."""
    args = _parser().parse_args(argv)
    if process_ends and args.command in ONE_SHOT:
        leave_garbage_to_exit()
    args.command_line = ["ccreport", *(sys.argv[1:] if argv is None else argv)]
    try:
        return COMMANDS[args.command](args)
    except UserInputError as error:
        _print_problems(error)
        return EXIT_BAD_INPUT
    except CCReportError as error:
        print(f"ccreport: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("ccreport: interrupted; the previous output is untouched", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        print(
            "ccreport: out of memory; lower bootstrap or workers in the manifest", file=sys.stderr
        )
        return EXIT_BAD_INPUT
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(f"ccreport: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        if caused_by_interrupt(error):  # a Ctrl-C Python wrapped in another error (interrupts.py)
            print("ccreport: interrupted; the previous output is untouched", file=sys.stderr)
            return EXIT_INTERRUPTED
        _internal_error()
        return EXIT_INTERNAL


def run() -> NoReturn:
    """The ``ccreport`` script and ``python -m ccreport``: :func:`main`, then an ordinary exit with
    its status (``atexit`` handlers, flushed streams, the interpreter's teardown). Every object is
    first moved to the collector's permanent generation (``gc.freeze``), so the teardown's final
    collection does not walk the build's garbage, which the operating system reclaims with the
    process (0.7 CPU s of the example's build)."""
    status = main(process_ends=True)
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
