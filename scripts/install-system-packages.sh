#!/usr/bin/env bash
# System packages, installed only when missing (idempotent).
#   (no argument)   what the test suite needs: Debian's Chromium (browser tests) and
#                   PostgreSQL (the server's PostgreSQL tests start a throwaway cluster with
#                   its initdb/pg_ctl).
#   --build-tools   what compiling the hot modules needs (scripts/compile.py): a C compiler
#                   and the headers of the Python in $PYTHON (default python3).
set -euo pipefail
need=()
if [ "${1:-}" = "--build-tools" ]; then
  command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)
  py="${PYTHON:-python3}"
  include="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
  if [ ! -e "$include/Python.h" ]; then
    # Debian's own Pythons keep their headers in pythonX.Y-dev.
    need+=("python$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-dev")
  fi
else
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
fi
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "install-system-packages: need root (or sudo) to install: ${need[*]}" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "Installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
