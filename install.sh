#!/usr/bin/env bash
# Install ccreport with everything it needs, on a fresh Debian/Ubuntu machine:
#   - system libraries WeasyPrint needs to lay out the PDF (Pango, HarfBuzz) and the report's
#     fonts (DejaVu), installed with apt-get only when missing;
#   - the package itself, editable, with its development extras (pytest, hypothesis, pypdf,
#     scikit-learn for regenerating the example predictions).
# Usage: bash install.sh
set -euo pipefail
cd "$(dirname "$0")"

system_packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
missing=()
for package in "${system_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    if command -v apt-get >/dev/null 2>&1; then
        sudo_if_needed=()
        [ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
        "${sudo_if_needed[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "${missing[@]}"
    else
        echo "install.sh: please install with your system's package manager: ${missing[*]}" >&2
        exit 1
    fi
fi

python3 -m pip install --quiet --disable-pip-version-check -e ".[dev]"
echo "ccreport installed: $(python3 -m ccreport --version)"
