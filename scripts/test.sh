#!/usr/bin/env bash
# The test command (README: `npm test`). Installs what it needs when missing, builds, type-checks
# and runs every test. Used by .ci/run on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: LLVM 19 is the oracle for encodings and text; clang-19 with libclc-19 and
# ld.lld-19 build real code objects from the OpenCL fixtures.
need=()
command -v llvm-objdump-19 >/dev/null 2>&1 || need+=(llvm-19)
command -v llvm-mc-19 >/dev/null 2>&1 || need+=(llvm-19)
command -v llvm-readobj-19 >/dev/null 2>&1 || need+=(llvm-19)
command -v clang-19 >/dev/null 2>&1 || need+=(clang-19)
command -v ld.lld-19 >/dev/null 2>&1 || need+=(lld-19)
[ -f /usr/lib/clc/gfx1030-amdgcn-mesa-mesa3d.bc ] || need+=(libclc-19)
# SPIR-V: spirv-val/spirv-dis check every module, the grammar JSON generates the builder's tables.
command -v spirv-val >/dev/null 2>&1 || need+=(spirv-tools)
[ -f /usr/include/spirv/unified1/spirv.core.grammar.json ] || need+=(spirv-headers)
# pocl (the CPU OpenCL implementation) through pyopencl: the oracle the interpreter is compared with.
[ -f /etc/OpenCL/vendors/pocl.icd ] || need+=(pocl-opencl-icd)
/usr/bin/python3 -c 'import pyopencl, numpy' >/dev/null 2>&1 || need+=(python3-pyopencl python3-numpy)
# mpmath: the high-precision oracle of the transcendental model (tests/float/transcendental.test.ts).
/usr/bin/python3 -c 'import mpmath' >/dev/null 2>&1 || need+=(python3-mpmath)
# Vulkan runtime (tests/runtime): the loader and its headers, lavapipe (the CPU driver the tests run
# on), vulkaninfo (the profile oracle), spirv-as/spirv-val, SPIR-V headers, glslang, and the
# compilers node-gyp needs for the N-API addon in native/.
[ -f /usr/include/vulkan/vulkan.h ] || need+=(libvulkan-dev)
compgen -G '/usr/share/vulkan/icd.d/lvp_icd.*.json' >/dev/null || need+=(mesa-vulkan-drivers)
command -v vulkaninfo >/dev/null 2>&1 || need+=(vulkan-tools)
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || need+=(vulkan-validationlayers)  # tests run with validation
command -v spirv-as >/dev/null 2>&1 || need+=(spirv-tools)
command -v spirv-val >/dev/null 2>&1 || need+=(spirv-tools)
[ -f /usr/include/spirv/unified1/spirv.core.grammar.json ] || need+=(spirv-headers)
command -v glslangValidator >/dev/null 2>&1 || need+=(glslang-tools)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${need[@]}" | sort -u) >/dev/null
fi

# npm dependencies (offline-safe: only the npm registry is used; better-sqlite3 built from source
# against the local Node headers, scripts/npm-ci.sh).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] || \
   [ ! -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ]; then
  bash scripts/npm-ci.sh
fi

# The N-API Vulkan addon (build/Release/rdna_vulkan.node), offline: npm's node-gyp, local Node headers.
bash scripts/build-native.sh
npm run --silent build
npm run --silent typecheck
mapfile -t files < <(find tests -name '*.test.ts' | sort)
node --import tsx --test --test-reporter=spec "${files[@]}"
