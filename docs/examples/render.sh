#!/bin/sh
# Renders the pictures of docs/layout.md and examples/ (docs/examples/*.png) with
# representative values. ExampleTests renders each line below the same way and
# compares its pixels with the picture here, so after changing a layout or a
# value, run this script (with a built paneld) and commit the pictures.
#
#   sh docs/examples/render.sh [PANELD]     (default: .build/debug/paneld)
set -eu
cd "$(dirname "$0")/../.."
paneld=${1:-.build/debug/paneld}
"$paneld" render --config docs/examples/small.json --set cpu=37 --set temp=58 --set mem=46 --output docs/examples/small.png
"$paneld" render --config examples/pi-7inch-800x480/layout.json --set cpu=37 --set temp=58.5 --set mem=46 --set disk=71 --set rx=12.4 --set tx=3.1 --output docs/examples/pi-7inch-800x480.png
"$paneld" render --config examples/spi-320x240/layout.json --set cpu=37 --set temp=58.5 --set mem=46 --output docs/examples/spi-320x240.png
"$paneld" render --config examples/hdmi-1920x1080/layout.json --set cpu=37 --set load=1.42 --set procs=212 --set temp=58.5 --set mem=46 --set disk=71 --set rx=124.6 --set tx=31.2 --output docs/examples/hdmi-1920x1080.png
"$paneld" render --config docs/examples/pages.json --page system --set cpu=37 --set temp=58 --set mem=46 --output docs/examples/pages.png
