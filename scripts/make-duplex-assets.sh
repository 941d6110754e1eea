#!/usr/bin/env bash
# Writes the assets of `parley bench duplex` into DIR (default: target/duplex-assets, not committed):
# DIR/rooms (image-source impulse responses of five shoebox rooms with their user paths), DIR/noise
# (fan, babble and cafe beds generated here) and DIR/speech (the fixture recordings with their .txt).
# Usage: scripts/make-duplex-assets.sh [DIR] [SPEECH_DIR]   (SPEECH_DIR default: the Vosk fixture's
# marytts and espeak-ng recordings under ../shared/fixtures/vosk/wav)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$(realpath -m "${1:-$root/target/duplex-assets}")"
speech=()
if [ $# -ge 2 ]; then
  speech=(--speech "$(realpath "$2")")
fi
cd "$root"
./parley bench duplex --make-rooms "$dir" "${speech[@]}"
echo "run: ./parley bench duplex --model M.gguf --vosk-model ../shared/fixtures/vosk/model-assistant" \
  "--rooms $dir/rooms --speech $dir/speech --noise $dir/noise --echo-db 0,-10 --snr-db 20,10 --trials 4"
