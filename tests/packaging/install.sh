#!/usr/bin/env bash
# Packaging checks (ctest "packaging"), without root and without Docker:
#  1. cmake --install into a staging directory (DESTDIR, prefix /usr): binary, systemd unit, docs,
#     licences
#  2. the installed unit names the installed binary; systemd-analyze verify accepts it (when
#     systemd-analyze exists)
#  3. the Makefile's install target passes PREFIX and DESTDIR to cmake --install
#  4. every shared library the binary needs comes from a package the Dockerfile's runtime stage
#     installs (when dpkg can tell which package provides it); every library CMake requires (libgit2
#     for bulwark scan among them) is installed by scripts/deps.sh (and so the GitHub Action's build)
#     and by the Dockerfile's build stage
#  5. docs/operations.md names every BULWARK_* variable of src/common/config.c
# usage: tests/packaging/install.sh BUILD_DIR BULWARK_BINARY
set -euo pipefail
build=$1 bin=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d /tmp/bulwark-install.XXXXXX)
trap 'rm -rf "$stage"' EXIT
fails=0 passes=0 skips=0
ok() { passes=$((passes + 1)); echo "ok - $*"; }
fail() { fails=$((fails + 1)); echo "not ok - $*"; }
skip() { skips=$((skips + 1)); echo "ok - # SKIP $*"; }

# 1. staged install
if DESTDIR="$stage" cmake --install "$build" --prefix /usr >"$stage.log" 2>&1; then
  ok "cmake --install with DESTDIR"
else
  cat "$stage.log"; fail "cmake --install with DESTDIR"
fi
rm -f "$stage.log"
unit=$stage/usr/lib/systemd/system/bulwark.service
for f in usr/bin/bulwark usr/lib/systemd/system/bulwark.service usr/share/doc/bulwark/README.md \
         usr/share/doc/bulwark/LICENSE usr/share/doc/bulwark/NOTICE \
         usr/share/doc/bulwark/operations.md usr/share/doc/bulwark/nginx.conf \
         usr/share/doc/bulwark/openapi.json usr/share/doc/bulwark/bulwark.env.example; do
  if [ -s "$stage/$f" ]; then ok "installed /$f"; else fail "missing /$f"; fi
done
if [ -x "$stage/usr/bin/bulwark" ] && "$stage/usr/bin/bulwark" version >/dev/null 2>&1; then
  ok "the installed binary runs"
else
  fail "the installed binary does not run"
fi
if [ "$(stat -c %a "$unit" 2>/dev/null)" = 644 ]; then ok "unit mode 644"; else fail "unit mode is not 644"; fi

# 2. the unit
if grep -qx 'ExecStart=/usr/bin/bulwark serve' "$unit" && ! grep -q '@BULWARK_' "$unit"; then
  ok "unit ExecStart names the installed binary"
else
  fail "unit ExecStart: $(grep ExecStart "$unit" || true)"
fi
for want in DynamicUser=yes StateDirectory=bulwark Environment=BULWARK_DATA_DIR=/var/lib/bulwark \
            ProtectSystem=strict ProtectHome=yes PrivateTmp=yes PrivateDevices=yes NoNewPrivileges=yes \
            CapabilityBoundingSet= 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' \
            SystemCallFilter=@system-service SystemCallArchitectures=native LockPersonality=yes \
            RestrictRealtime=yes RestrictNamespaces=yes ProtectKernelTunables=yes \
            ProtectKernelModules=yes ProtectKernelLogs=yes ProtectControlGroups=yes UMask=0077 \
            EnvironmentFile=-/etc/bulwark/bulwark.env; do
  if grep -qxF -- "$want" "$unit"; then ok "unit has $want"; else fail "unit lacks $want"; fi
done
if grep -q '^MemoryDenyWriteExecute' "$unit"; then
  fail "MemoryDenyWriteExecute breaks PCRE2's JIT"
else
  ok "no MemoryDenyWriteExecute (PCRE2 JIT)"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  # verify checks that ExecStart exists: point it at the staged binary, in a copy
  sed "s|^ExecStart=/usr/bin/bulwark|ExecStart=$stage/usr/bin/bulwark|" "$unit" >"$stage/bulwark.service"
  if out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$stage/bulwark.service" 2>&1) \
      && ! grep -q 'bulwark.service' <<<"$out"; then
    ok "systemd-analyze verify"
  else
    echo "$out"; fail "systemd-analyze verify"
  fi
else
  skip "systemd-analyze verify: systemd-analyze not installed"
fi

# 3. make install -> cmake --install with PREFIX and DESTDIR
dry=$(make -s -n -C "$src" install BUILD="$build" PREFIX=/opt/bw DESTDIR=/tmp/pkg-root 2>&1 || true)
if grep -qF "DESTDIR=\"/tmp/pkg-root\" cmake --install $build --prefix \"/opt/bw\"" <<<"$dry"; then
  ok "make install passes PREFIX and DESTDIR"
else
  echo "$dry"; fail "make install does not pass PREFIX and DESTDIR"
fi

# 4. Dockerfile runtime packages cover the binary's libraries
runtime=$(awk '/^FROM /{n++} n==2' "$src/Dockerfile")
if [ -z "$runtime" ]; then
  fail "Dockerfile has no runtime stage"
elif ! command -v dpkg >/dev/null 2>&1; then
  skip "Dockerfile libraries: no dpkg to map libraries to packages"
else
  for so in $(objdump -p "$bin" | awk '/NEEDED/{print $2}'); do
    path=$(ldd "$bin" | awk -v so="$so" '$1 == so {print $3}')
    pkg=$( { dpkg -S "$path" || dpkg -S "$(readlink -f "$path")" || true; } 2>/dev/null | head -n 1 | cut -d: -f1)
    case "$pkg" in
      "") skip "Dockerfile libraries: dpkg does not know who provides $so" ;;
      libc6|libgcc-s1|libstdc++6) ok "$so: $pkg is in every Debian image" ;;
      *) if grep -qw -- "$pkg" <<<"$runtime"; then ok "$so: $pkg in the Dockerfile runtime stage"
         else fail "$so: package $pkg missing from the Dockerfile runtime stage"; fi ;;
    esac
  done
  for dev in $(awk '/^FROM /{n++} n==1' "$src/Dockerfile" | grep -oE '[a-z0-9][a-z0-9.+-]*-dev\b' | sort -u); do
    if grep -qw -- "$dev" "$src/scripts/deps.sh"; then ok "$dev also in scripts/deps.sh"
    else fail "$dev in the Dockerfile but not in scripts/deps.sh"; fi
  done
  # the other way round: each library CMake requires (pkg_check_modules ... REQUIRED) comes from a
  # -dev package that both places building bulwark install: scripts/deps.sh (make run, the
  # GitHub Action's build step, the GitLab recipe) and the Dockerfile's build stage
  build_stage=$(awk '/^FROM /{n++} n==1' "$src/Dockerfile")
  for mod in $(sed -nE 's/^pkg_check_modules\([A-Z0-9_]+ REQUIRED IMPORTED_TARGET ([^ )<>=]+).*/\1/p' "$src/CMakeLists.txt"); do
    pc="$(pkg-config --variable=pcfiledir "$mod" 2>/dev/null)/$mod.pc"
    dev=$(dpkg -S "$pc" 2>/dev/null | head -n 1 | cut -d: -f1)
    if [ -z "$dev" ]; then skip "CMake's $mod: dpkg does not know who provides $pc"; continue; fi
    for where in scripts/deps.sh Dockerfile; do
      if [ "$where" = Dockerfile ]; then text=$build_stage; else text=$(cat "$src/$where"); fi
      if grep -qw -- "$dev" <<<"$text"; then ok "CMake's $mod: $dev in $where"
      else fail "CMake requires $mod but $where does not install $dev"; fi
    done
  done
  if grep -q 'scripts/deps.sh" build' "$src/scripts/action-build.sh"; then ok "the action's build installs scripts/deps.sh build"
  else fail "scripts/action-build.sh does not run scripts/deps.sh build"; fi
fi

# 5. docs/operations.md documents every variable the configuration table reads
for v in $(grep -oE '^ +\{"[A-Z_]+", K_' "$src/src/common/config.c" | grep -oE '[A-Z_]{2,}' | grep -v '^K_'); do
  # BULWARK_RATE_PRO may be written as `_PRO` on the line of BULWARK_RATE_FREE
  if grep -qE "BULWARK_$v\b|BULWARK_${v%_*}_[A-Z]+\`.*\`_${v##*_}\`" "$src/docs/operations.md"; then
    ok "operations.md: BULWARK_$v"
  else fail "operations.md does not document BULWARK_$v"; fi
done

echo "$passes passed, $fails failed, $skips skipped"
[ "$fails" -eq 0 ]
