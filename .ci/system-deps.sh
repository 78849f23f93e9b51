#!/usr/bin/env bash
# Debian packages the tests need; installed here, never assumed (CI starts fresh).
#   cmake, g++        ffi.md runs `!cmake` to build its C++ extension
#   chromium, fonts   the browser test of the built site (Korean glyphs)
#   gettext           msgfmt -c validates catalogs in tests
#   npm               fetches mermaid from the npm registry (jaxko.sphinxext.offline_mermaid);
#                     any npm on PATH will do
set -euo pipefail
packages=(cmake g++ chromium fonts-noto-cjk gettext)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing ${missing[*]}; install them with apt-get (needs root)" >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
