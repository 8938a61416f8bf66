#!/bin/sh
# Install the Debian packages ssched needs (only those missing).
# Runs apt-get directly as root, through sudo otherwise.
set -e
PKGS="build-essential cmake pkg-config libgmp-dev liblpsolve55-dev libigraph-dev \
libarpack2-dev libglpk-dev libplfit-dev libxml2-dev libcunit1-dev libjansson-dev \
qsopt-ex glpk-utils valgrind bc clang libclang-rt-dev openmpi-bin libopenmpi-dev libsimgrid-dev chromium man-db python3-jsonschema graphviz"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
