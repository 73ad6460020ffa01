#!/usr/bin/env bash
# `npm ci` for a machine that reaches only the npm registry (CI: a fresh Debian 12): the native
# dependency better-sqlite3 (the shader cache's SQLite) is built from source with npm's bundled
# node-gyp instead of downloading a prebuilt binary from GitHub (npm_config_build_from_source),
# against the installed Node's own headers instead of downloading them from nodejs.org
# (npm_config_nodedir, found as scripts/build-native.sh finds it). Needs g++, make, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

nodedir="${npm_config_nodedir:-}"
if [ -z "$nodedir" ]; then
  # The prefix of the running node (/usr for Debian/nodesource) holds include/node/node_api.h.
  nodedir="$(dirname "$(dirname "$(command -v node)")")"
fi
if [ ! -f "$nodedir/include/node/node_api.h" ]; then
  echo "npm-ci: no Node headers under $nodedir/include/node (set npm_config_nodedir)" >&2
  exit 1
fi
npm_config_build_from_source=true npm_config_nodedir="$nodedir" npm ci --no-audit --no-fund "$@"
