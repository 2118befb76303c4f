#!/usr/bin/env bash
# ctest cli/find_package_consumer: a project outside the tree builds against the installed prefix
# with find_package(mlsys) and runs. Usage: consumer_test.sh <source dir> <prefix> <work dir>
set -euo pipefail
src=$1 prefix=$2 work=$3
rm -rf "$work"
cmake -S "$src/tests/cli/standalone/consumer" -B "$work" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work" -j 2 >/dev/null
"$work/consumer"
