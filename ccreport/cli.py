"""The ``ccreport`` command: build, check, new, serve.

Bad input (manifest, data, templates) is printed one problem per line as ``file:line: field:
expected ...`` and the command exits with status 2, without a traceback and without touching the
previous build output.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import time
from pathlib import Path

from .version import __version__
from .errors import CCReportError, UserInputError

DESCRIPTION = """\
ccreport turns a project manifest (ccreport.toml) into a cost-curve analysis report of binary
classifiers: results.json, a static HTML site and a PDF (Drummond & Holte 2006, "Cost curves").

Quick start:
  ccreport new myproject        # a working starter project with synthetic data
  ccreport build myproject      # analyse and write myproject/site/ (index.html, report.pdf, results.json)
  ccreport serve myproject      # preview the built site on http://127.0.0.1:8000
"""

EXIT_BAD_INPUT = 2


def _add_build(sub):
    p = sub.add_parser(
        "build",
        help="analyse the project and write the report",
        description="Validate the manifest and data, run every analysis, and write results.json, "
        "the HTML site and report.pdf into the output folder (default: PROJECT_DIR/site). The "
        "previous output is replaced only when the whole build succeeds.",
    )
    p.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR", help="folder holding ccreport.toml (default: .)")
    p.add_argument("-o", "--output", metavar="OUT", help="output folder (default: PROJECT_DIR/site)")
    p.add_argument("-j", "--workers", type=int, metavar="N", help="worker processes for the analyses (default: the manifest's, else 1); results do not depend on it")
    p.add_argument("--no-pdf", action="store_true", help="skip report.pdf (faster previews)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ccreport", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ccreport {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_build(sub)
    p = sub.add_parser("check", help="validate the manifest and data only", description="Report every problem in the manifest and the data files, then exit (status 2 if any).")
    p.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR")
    p = sub.add_parser("new", help="create a starter project", description="Create a working starter project (manifest, synthetic data, narrative) in a new folder.")
    p.add_argument("directory", metavar="DIR")
    p = sub.add_parser("serve", help="preview a built site on localhost", description="Serve the built site (PROJECT_DIR/site or -o OUT) on 127.0.0.1 for preview. Build first.")
    p.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR")
    p.add_argument("-o", "--output", metavar="OUT")
    p.add_argument("--port", type=int, default=8000)
    return parser


def _output(args) -> Path:
    """The output folder: ``-o`` as given, else ``site`` beside the manifest (as :func:`build` picks
    it), relative to the working folder when inside it."""
    from .build import output_folder
    from .manifest import display_path

    return Path(args.output) if args.output else Path(display_path(output_folder(args.project)))


def _build(args) -> int:
    from .build import build

    started = time.perf_counter()
    results = build(args.project, args.output, workers=args.workers, pdf=not args.no_pdf)
    out = _output(args)
    n_classifiers = sum(len(d.classifiers) for d in results.datasets.values())
    print(
        f"built {out} in {time.perf_counter() - started:.1f} s: {len(results.datasets)} datasets, "
        f"{n_classifiers} classifier evaluations, {len(results.priors)} priors"
    )
    return 0


def _check(args) -> int:
    from .loaders import load_project_data
    from .manifest import load_project

    project = load_project(args.project)
    datasets = load_project_data(project)
    print(f"{project.manifest_path}: ok ({len(datasets)} datasets, {len(project.classifiers)} classifiers, {len(project.priors)} priors)")
    return 0


def _new(args) -> int:
    from .starter import create_starter

    root = create_starter(args.directory)
    print(f"created {root}; now run: ccreport build {root}")
    return 0


def _serve(args) -> int:
    root = _output(args)
    if not (root / "index.html").is_file():
        from .errors import Problem

        raise UserInputError(Problem(str(root), "site", "expected a built site (index.html); run ccreport build first"))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        print(f"serving {root} on http://127.0.0.1:{args.port}/ (Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


COMMANDS = {"build": _build, "check": _check, "new": _new, "serve": _serve}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except UserInputError as error:
        for problem in error.problems:
            print(str(problem), file=sys.stderr)
        count = len(error.problems)
        print(f"ccreport: {count} problem{'s' if count != 1 else ''} found; nothing was written", file=sys.stderr)
        return EXIT_BAD_INPUT
    except CCReportError as error:
        print(f"ccreport: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
