#!/usr/bin/env bash
# Install what pip cannot: venv support for Debian's Python and, for the browser tests
# (--browser), Debian's Chromium. Skips whatever is already there.
set -euo pipefail
want=()
"${PYTHON:-python3}" -c "import ensurepip, venv" >/dev/null 2>&1 || want+=(python3-venv)
if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then want+=(chromium); fi
[ ${#want[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "pizarra setup: installing ${want[*]} with apt-get" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
