#!/usr/bin/env bash
# Builds Parley as a desktop app with jpackage (docs/packaging.md): a self-contained app image with a jlink runtime
# holding only the modules Parley uses, and, unless --type app-image, an installer of that image, in target/package/.
#
#   scripts/package.sh                    # Linux: .deb (needs fakeroot and dpkg-deb); macOS: .dmg; Windows: .msi
#   scripts/package.sh --type app-image   # the app image only (target/package/parley)
#   scripts/package.sh --type dmg|pkg (macOS) or --type msi|exe (Windows, from Git Bash)
#   scripts/package.sh --skip-build       # use the jars a build already made (app/target)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

case "$(uname -s)" in
  Linux) os=linux; type=deb ;;
  Darwin) os=mac; type=dmg ;;
  MINGW*|MSYS*|CYGWIN*) os=windows; type=msi ;;
  *) echo "package.sh: unknown system $(uname -s)" >&2; exit 2 ;;
esac
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --type) type="${2:?--type needs a value}"; shift 2 ;;
    --skip-build) build=0; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$os:$type" in
  linux:app-image|linux:deb|mac:app-image|mac:dmg|mac:pkg|windows:app-image|windows:msi|windows:exe) ;;
  *) echo "package.sh: expected --type app-image or an installer type of $os (linux: deb; mac: dmg, pkg;" \
       "windows: msi, exe) but found '$type'" >&2; exit 2 ;;
esac

if [ "$type" = deb ]; then
  for tool in fakeroot dpkg-deb; do
    command -v "$tool" >/dev/null || { echo "package.sh: a .deb needs $tool (apt-get install -y fakeroot dpkg)" >&2; exit 1; }
  done
fi

# JDK 25, found as ./parley finds it.
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q '"2[5-9]'; then
  JAVA_HOME=$(ls -d /usr/lib/jvm/temurin-25* /usr/lib/jvm/*-25* 2>/dev/null | head -n 1 || true)
fi
if [ -z "${JAVA_HOME:-}" ] || [ ! -x "$JAVA_HOME/bin/jpackage" ]; then
  echo "package.sh: needs a JDK 25 with jpackage; set JAVA_HOME to it" >&2
  exit 1
fi
export JAVA_HOME
bin="$JAVA_HOME/bin"

# The version: the project's, without -SNAPSHOT (installers want plain numbers).
version=$(sed -n 's:^  <version>\([0-9][0-9.]*\).*</version>:\1:p' pom.xml | head -n 1)
[ -n "$version" ] || { echo "package.sh: cannot read the version from pom.xml" >&2; exit 1; }

if [ "$build" = 1 ]; then
  echo "package.sh: building the jars..."
  ./mvnw -B -q -DskipTests -Djazzer.skip=true package
fi
[ -f app/target/parley-app.jar ] || { echo "package.sh: expected app/target/parley-app.jar; build first" >&2; exit 1; }

out="$root/target/package"
work="$out/work"
rm -rf "$out"
mkdir -p "$work/input" "$work/resources"
cp app/target/parley-app.jar app/target/lib/*.jar "$work/input/"

# The runtime: the modules jdeps finds in every jar (JavaFX's too: they are on the class path), the Vector API
# incubator (added at start-up, not found by jdeps as a requirement of the app's class path), and modules that
# are only looked up at run time: TLS ciphers for downloads, zip file systems, extra charsets.
echo "package.sh: finding the modules the jars use (jdeps)..."
modules=$("$bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 "$work"/input/*.jar)
modules=$(printf '%s\n' ${modules//,/ } jdk.incubator.vector jdk.crypto.ec jdk.zipfs jdk.charsets | sort -u | paste -sd, -)
echo "package.sh: jlink runtime with $modules"
"$bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=zip-6 \
  --output "$work/runtime"

# The icon, drawn at build time (only its source is in the repository). macOS wants .icns and Windows .ico:
# without one there, jpackage uses its default icon (docs/packaging.md).
icon=()
"$bin/java" -Djava.awt.headless=true app/src/packaging/ParleyIcon.java "$work/parley.png" 256
[ "$os" = linux ] && icon=(--icon "$work/parley.png")
[ -f app/src/packaging/parley.icns ] && [ "$os" = mac ] && icon=(--icon app/src/packaging/parley.icns)
[ -f app/src/packaging/parley.ico ] && [ "$os" = windows ] && icon=(--icon app/src/packaging/parley.ico)

common=(--name parley --app-version "$version" --vendor "Parley"
        --description "A local, private, real-time voice chat assistant" --dest "$out")
# Started from the Dock, Finder or the Start menu, the app gets no arguments: there, no arguments open the window.
# On Linux the desktop entry says `parley gui` itself, and `parley` alone stays what ./parley does.
launch=()
[ "$os" != linux ] && launch=(--arguments gui)
echo "package.sh: app image..."
"$bin/jpackage" --type app-image "${common[@]}" ${icon[@]+"${icon[@]}"} ${launch[@]+"${launch[@]}"} \
  --input "$work/input" --main-jar parley-app.jar --main-class dev.parley.app.Main \
  --runtime-image "$work/runtime" \
  --java-options "--add-modules jdk.incubator.vector" --java-options "--enable-native-access=ALL-UNNAMED"

case "$os" in
  linux) image="$out/parley"; app_dir=/opt/parley ;;
  mac) image="$out/parley.app" ;;
  windows) image="$out/parley" ;;
esac

if [ "$os" = linux ]; then
  # `parley` on the PATH with ./parley's environment, and the desktop entry: files in the image that the
  # package's postinst links into /usr/bin and /usr/share.
  for f in parley-launcher parley.desktop; do
    sed "s:@APP_DIR@:$app_dir:g" "app/src/packaging/linux/$f" > "$image/lib/$f"
  done
  chmod 755 "$image/lib/parley-launcher"
  for f in postinst prerm; do
    sed "s:@APP_DIR@:$app_dir:g" "app/src/packaging/linux/$f" > "$work/resources/$f"
  done
fi

if [ "$type" != app-image ]; then
  echo "package.sh: $type installer..."
  extra=()
  case "$type" in
    # JavaFX's native code comes inside its jars, so jpackage's scan of the image does not see that a window
    # needs GTK 3: say so (t64 is its name from Debian 13 / Ubuntu 24.04 on).
    deb) extra=(--linux-package-name parley --linux-deb-maintainer parley@localhost --linux-app-category utils
                --linux-package-deps "libgtk-3-0 | libgtk-3-0t64" --install-dir /opt) ;;
    msi|exe) extra=(--win-menu --win-shortcut --win-dir-chooser --win-console) ;;
  esac
  "$bin/jpackage" --type "$type" "${common[@]}" --app-image "$image" --resource-dir "$work/resources" ${extra[@]+"${extra[@]}"}
fi

rm -rf "$work"
echo "package.sh: done:"
du -sh "$image" | sed 's/^/  app image: /'
for f in "$out"/*."$type"; do
  [ -f "$f" ] && echo "  $type: $f ($(du -h "$f" | cut -f1), $(stat -c %s "$f" 2>/dev/null || stat -f %z "$f") bytes)"
done
exit 0
