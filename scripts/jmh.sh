#!/usr/bin/env bash
# JMH microbenchmarks of the engine's kernels (engine/src/jmh/java), outside the default build.
#
#   scripts/jmh.sh [JMH OPTIONS ...]     e.g. scripts/jmh.sh Q8MatmulBench -p tokens=1,128 -p threads=1
#
# Compiles the engine with the jmh profile (benchmarks + test classes) and runs JMH's runner. Benchmarks, not
# tests: on a shared machine compare figures of one run only (see docs/benchmarks.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
cp_file="$root/engine/target/jmh.classpath"
if [ -z "${JMH_NO_BUILD:-}" ]; then
  ./mvnw -B -q -pl engine -am -Pjmh -DskipTests test-compile
  ./mvnw -B -q -pl engine -Pjmh dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$cp_file" >/dev/null
fi
exec "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector \
    -cp "$root/engine/target/test-classes:$root/engine/target/classes:$(cat "$cp_file")" \
    org.openjdk.jmh.Main "$@"
