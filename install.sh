#!/usr/bin/env bash
# Install what ccreport needs and is missing; the one place that knows its system packages and
# Python extras. `./run example` and `./run test` call it first; it can also be run on its own.
#
#   - Debian packages WeasyPrint needs to lay out the PDF (Pango, HarfBuzz) and the report's
#     fonts (DejaVu), and the TeX the LaTeX-table test compiles with (pdflatex from
#     texlive-latex-base, booktabs from texlive-latex-recommended, siunitx from texlive-science) and
#     poppler-utils (pdfinfo, pdfdetach: the archive tests check the PDF with them), chromium (the
#     explorer's browser tests drive it with Playwright; never `playwright install`), without
#     recommended packages:
#     checked with one dpkg-query, installed with apt-get (sudo when not root) only when missing;
#   - the package itself, editable, with its development extras (pytest, hypothesis, pypdf,
#     scikit-learn for regenerating the example predictions, page-validation: the PDF/A-3b
#     validator the PDF tests use): `pip install -e ".[dev]"` into the
#     active virtual environment's Python, else the system's python3; skipped when a stamp says
#     this checkout's pyproject.toml was installed into this Python and it still imports from here;
#   - ccreport's own modules byte-compiled (compileall), as a pip install would have them.
#
# Idempotent; prints nothing when nothing was missing. Usage: bash install.sh
set -euo pipefail
cd "$(dirname "$0")"

system_packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core poppler-utils
                 texlive-latex-base texlive-latex-recommended texlive-science chromium)

if command -v dpkg-query >/dev/null 2>&1; then
    installed=$(dpkg-query -W -f='${Status} ${Package}\n' "${system_packages[@]}" 2>/dev/null || true)
    missing=()
    for package in "${system_packages[@]}"; do
        grep -qx "install ok installed $package" <<<"$installed" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        echo "install.sh: installing system packages: ${missing[*]}"
        sudo_if_needed=()
        [ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
        "${sudo_if_needed[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

if [ -n "${VIRTUAL_ENV:-}" ]; then python="$VIRTUAL_ENV/bin/python"; else python=python3; fi

# Up to date when this Python's stamp holds the hash of pyproject.toml, ccreport imports from
# this checkout (not the working folder) and every requirement of ccreport[dev] is installed.
# Prints the stamp file's path when pip must run.
stale=$("$python" - <<'EOF'
import hashlib, os, re, sys
from importlib import metadata, util

root = os.getcwd()
sys.path[:] = [p for p in sys.path if p not in ("", ".", root)]
key = hashlib.sha256(sys.prefix.encode()).hexdigest()[:16]
stamp = os.path.join(root, ".setup-stamps", key)
wanted = hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest()


def up_to_date():
    try:
        if open(stamp).read().strip() != wanted:
            return False
        spec = util.find_spec("ccreport")
        if spec is None or not spec.origin or not spec.origin.startswith(os.path.join(root, "ccreport", "")):
            return False
        for requirement in metadata.requires("ccreport") or ():
            metadata.version(re.match(r"[A-Za-z0-9._-]+", requirement).group())
        return True
    except (OSError, ValueError, metadata.PackageNotFoundError):
        return False


if sys.version_info < (3, 11):
    sys.exit(f"install.sh: ccreport needs Python 3.11 or newer; {sys.executable} is {sys.version.split()[0]}")
if not up_to_date():
    print(stamp, wanted)
EOF
)

if [ -n "$stale" ]; then
    read -r stamp wanted <<<"$stale"
    echo "install.sh: installing ccreport with its dev extras into $("$python" -c 'import sys; print(sys.prefix)')"
    # pip's output is shown only when it fails (a local index may warn about every package).
    if ! log=$("$python" -m pip install --quiet --disable-pip-version-check -e ".[dev]" 2>&1); then
        echo "$log" >&2
        stdlib=$("$python" -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
        if [ -z "${VIRTUAL_ENV:-}" ] && [ -f "$stdlib/EXTERNALLY-MANAGED" ]; then
            echo "install.sh: this python3 is managed by the system; make a virtual environment first:" >&2
            echo "    python3 -m venv .venv && . .venv/bin/activate" >&2
        fi
        exit 1
    fi
    mkdir -p "$(dirname "$stamp")"
    echo "$wanted" >"$stamp"
    echo "install.sh: ccreport $("$python" -m ccreport --version | awk '{print $NF}') installed"
fi

# Byte-compile ccreport's own modules. pip compiles a package it installs, but this install is
# editable: Python compiles each module when it is first imported and caches it in __pycache__,
# unless PYTHONDONTWRITEBYTECODE is set (as in many containers, and on the machine the benchmarks
# ran on), when every command compiles ccreport's ~125 modules again: about 0.2 CPU s of each build
# (benchmarks/README.md, "Session 15"). Up to date files are skipped (~0.15 s); a file that does not
# compile is left to the import that needs it to report.
"$python" -m compileall -qq ccreport >/dev/null || true
