#!/usr/bin/env bash
# Renders keyline.svg to the PNG sizes the .desktop entry and jpackage use (needs ImageMagick's
# `convert`; Debian: apt-get install imagemagick). The PNGs are committed: the build never runs this.
set -euo pipefail
cd "$(dirname "$0")"
for s in 16 24 32 48 64 128 256 512; do
  convert -background none -density 384 keyline.svg -resize "${s}x${s}" "keyline-${s}.png"
done
ls -l keyline-*.png
