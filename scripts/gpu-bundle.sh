#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh needs on a GPU machine without a JDK or Maven (such as the device machines lent to
# Parley sessions, which have CUDA and Python but no Java): a jlinked Java 25 runtime, the engine, models and app jars
# with the few libraries the check uses (no JavaFX, MaryTTS or Vosk), the engine's test classes and JUnit's console
# launcher, as one .tar.xz of about 30 MB (most of it the runtime) in .gpu-bundle/ (ignored by git; carry it to the GPU machine).
#
# Usage (on a build machine with JDK 25 and the Maven repository):
#   scripts/gpu-bundle.sh                 # -> .gpu-bundle/parley-gpu.tar.xz
#   PARLEY_GPU_FIXTURES=1 scripts/gpu-bundle.sh   # also the parity fixtures m1 and m3 (+34 MB) from ../shared
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/.gpu-bundle"
JAVA_HOME=${JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-25* /usr/lib/jvm/*-25* 2>/dev/null | head -n 1)}
export JAVA_HOME
console=${JUNIT_CONSOLE:-$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.13.4/junit-platform-console-standalone-1.13.4.jar}
if [ ! -f "$console" ]; then
  ./mvnw -B -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.13.4
fi
[ "${PARLEY_GPU_NO_BUILD:-0}" = 1 ] || ./mvnw -B -q -o -pl app -am package -DskipTests
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.desktop,java.logging,java.sql,jdk.unsupported,jdk.incubator.vector \
  --compress=zip-9 --strip-debug --no-man-pages --no-header-files --output "$stage/jre" 2>/dev/null
strip --strip-unneeded "$stage/jre/lib/server/libjvm.so" 2>/dev/null || true
mkdir -p "$stage/lib" "$stage/tests"
cp app/target/parley-app.jar "$stage/lib/"
for jar in parley-engine parley-models parley-audio picocli jackson-annotations jackson-core jackson-databind \
           jcuda-12 slf4j-api slf4j-nop; do
  cp app/target/lib/"$jar"*.jar "$stage/lib/"
done
# JCuda's natives without the PTX compiler, NVRTC and runtime libraries: the GPU needs only libJCudaDriver (9 MB less).
python3 - "$root"/app/target/lib/jcuda-natives-*.jar "$stage/lib/jcuda-natives-driver-only.jar" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zin, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as zout:
    for entry in zin.infolist():
        if entry.filename.endswith(".so") and "JCudaDriver" not in entry.filename:
            continue
        zout.writestr(entry, zin.read(entry.filename))
PY
cp -r engine/target/test-classes "$stage/tests/engine"
cp "$console" "$stage/junit-console.jar"
if [ "${PARLEY_GPU_FIXTURES:-0}" = 1 ]; then
  mkdir -p "$stage/shared/fixtures/parity"
  cp ../shared/fixtures/parity/m1-llama-spm-q8_0.gguf ../shared/fixtures/parity/m3-llama-gpt2-tied-q8_0.gguf \
    "$stage/shared/fixtures/parity/"
fi
git rev-parse HEAD > "$stage/COMMIT"
mkdir -p "$out"
tar -C "$stage" -cJf "$out/parley-gpu.tar.xz" .
echo "gpu-bundle: $out/parley-gpu.tar.xz ($(du -h "$out/parley-gpu.tar.xz" | cut -f1)) of commit $(cat "$stage/COMMIT")"
