#!/usr/bin/env bash
# Builds the N-API Vulkan addon (native/) into build/Release/rdna_vulkan.node, offline:
# npm's bundled node-gyp, headers from the installed Node (--nodedir), nothing downloaded.
# Needs: g++/gcc, make, python3, libvulkan-dev (scripts/test.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

nodedir="${npm_config_nodedir:-}"
if [ -z "$nodedir" ]; then
  # The prefix of the running node (/usr for Debian/nodesource) holds include/node/node_api.h.
  nodedir="$(dirname "$(dirname "$(command -v node)")")"
fi
if [ ! -f "$nodedir/include/node/node_api.h" ]; then
  echo "build-native: no Node headers under $nodedir/include/node (set npm_config_nodedir)" >&2
  exit 1
fi
if [ ! -f /usr/include/vulkan/vulkan.h ]; then
  echo "build-native: /usr/include/vulkan/vulkan.h missing (install libvulkan-dev)" >&2
  exit 1
fi

# Up to date: the addon is newer than every file in native/ (build outputs aside) and this script.
out=build/Release/rdna_vulkan.node
if [ "${1:-}" != "--force" ] && [ -f "$out" ] && \
   [ -z "$(find native scripts/build-native.sh -path native/build -prune -o -type f -newer "$out" -print)" ]; then
  echo "build-native: $out is up to date"
  exit 0
fi

gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
if [ ! -f "$gyp" ]; then
  echo "build-native: npm's bundled node-gyp not found at $gyp" >&2
  exit 1
fi

(cd native && node "$gyp" rebuild --nodedir="$nodedir" --loglevel=warn)
mkdir -p build/Release
cp native/build/Release/rdna_vulkan.node "$out"
echo "build-native: $out"
