#!/usr/bin/env bash
# full_and_read_only_folders: `pykc run` with its cache folder on a full file system (a 16 KiB
# tmpfs: the entry cannot be stored, ENOSPC), with its temporary folder (TMPDIR, where the host
# compiler works) full, and with a cache folder it may not write (mode 555, run as `nobody` when
# this runs as root, for whom modes do not apply). Each run must end with the right result and a
# warning naming the cache folder, or with a clear error naming the path and the system's reason
# (exit 1); never a crash, never a wrong result, and no partial entry a later run would load: the
# same cache used again once there is room must give the right result.
# The file systems are mounted in a private mount namespace (unshare); where that is not allowed,
# the test says so and exits 77 (skipped).
# Usage: full_and_read_only_folders.sh PYKC WORK
set -uo pipefail
pykc=$1 work=$2
python=/usr/bin/python3
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
cat >"$work/k.pyk" <<'PYK'
from numba import cuda


@cuda.jit
def twice_plus(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 2 * x[i] + 1
PYK
$python -c "import numpy as np; np.save('$work/x.npy', np.arange(64, dtype=np.int64)); np.save('$work/o.npy', np.zeros(64, np.int64))"
chmod 644 "$work"/*.npy "$work/k.pyk"
failures=0

# check NAME EXIT OUT ERRFILE: exit 0 with the right values, or exit 1 with a message naming
# a path and the reason.
check() {
  local name=$1 rc=$2 out=$3 err=$4
  if [ "$rc" -eq 0 ]; then
    if ! $python -c "import numpy as np, sys
a = np.load('$out/arg0.npy'); sys.exit(0 if (a == 2 * np.arange(64) + 1).all() else 1)"; then
      echo "FAIL $name: exit 0 with a wrong result"
      failures=$((failures + 1))
      return
    fi
    echo "ok   $name: right result$(grep -q 'warning' "$err" && echo ', warned: ' && grep -m1 warning "$err")"
  elif [ "$rc" -eq 1 ] && grep -qE "error: .*(/|folder).*(No space left|Permission denied|Read-only)" "$err"; then
    echo "ok   $name: a clear error: $(grep -m1 error "$err")"
  else
    echo "FAIL $name: exit $rc: $(head -c 600 "$err")"
    failures=$((failures + 1))
  fi
}

# Private mounts: as root `unshare -m`, else a user namespace too (`unshare -rm`).
if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m); else ns=(unshare -rm); fi
if ! "${ns[@]}" sh -c "mount -t tmpfs -o size=16k tmpfs '$work'/.. 2>/dev/null || mount -t tmpfs -o size=16k tmpfs /mnt" \
  >/dev/null 2>&1; then
  echo "skipped: cannot mount a tmpfs in a private mount namespace here (${ns[*]})"
  exit 77
fi

mkdir -p "$work/full" "$work/tmp" "$work/cache"
# 1. The cache folder full: the kernel compiles (TMPDIR has room), its entry cannot be stored.
"${ns[@]}" sh -c "mount -t tmpfs -o size=16k tmpfs '$work/full' &&
  head -c 12288 /dev/zero > '$work/full/filler' 2>/dev/null;
  PYK_BACKEND=cpu PYK_COMPILE_MESSAGES=0 PYK_CACHE_DIR='$work/full/cache' \
  '$pykc' run '$work/k.pyk' twice_plus --grid 1 --block 64 --out '$work/out1' '$work/o.npy' '$work/x.npy' \
  2>'$work/err1'; rc=\$?;
  rm -f '$work/full/filler';
  PYK_BACKEND=cpu PYK_COMPILE_MESSAGES=0 PYK_CACHE_DIR='$work/full/cache' \
  '$pykc' run '$work/k.pyk' twice_plus --grid 1 --block 64 --out '$work/out1b' '$work/o.npy' '$work/x.npy' \
  2>'$work/err1b'; echo \$rc \$? > '$work/rc1'"
read -r rc1 rc1b <"$work/rc1"
check "cache folder full (ENOSPC)" "$rc1" "$work/out1" "$work/err1"
check "the same cache once there is room" "$rc1b" "$work/out1b" "$work/err1b"

# 2. TMPDIR full: the host compiler has no room to work.
"${ns[@]}" sh -c "mount -t tmpfs -o size=16k tmpfs '$work/tmp' &&
  head -c 16384 /dev/zero > '$work/tmp/filler' 2>/dev/null;
  TMPDIR='$work/tmp' PYK_BACKEND=cpu PYK_COMPILE_MESSAGES=0 PYK_CACHE_DIR='$work/cache' \
  '$pykc' run '$work/k.pyk' twice_plus --grid 1 --block 64 --out '$work/out2' '$work/o.npy' '$work/x.npy' \
  2>'$work/err2'; echo \$? > '$work/rc2'"
check "temporary folder full (ENOSPC)" "$(cat "$work/rc2")" "$work/out2" "$work/err2"

# 3. A cache folder that may not be written.
mkdir -p "$work/readonly" "$work/out3"
chmod 555 "$work/readonly"
chmod 777 "$work/out3"
as=()
if [ "$(id -u)" -eq 0 ]; then
  # The folder is nobody's own (pyk uses only a cache folder of the user's own), but read-only.
  chown 65534:65534 "$work/readonly"
  as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
HOME="$work" PYK_BACKEND=cpu PYK_COMPILE_MESSAGES=0 PYK_CACHE_DIR="$work/readonly" \
  "${as[@]}" "$pykc" run "$work/k.pyk" twice_plus --grid 1 --block 64 --out "$work/out3/o" \
  "$work/o.npy" "$work/x.npy" 2>"$work/err3"
check "cache folder not writable" $? "$work/out3/o" "$work/err3"
if [ -n "$(ls -A "$work/readonly")" ]; then
  echo "FAIL: something was written into the read-only cache folder"
  failures=$((failures + 1))
fi

# The input files are untouched.
$python -c "import numpy as np, sys
sys.exit(0 if (np.load('$work/x.npy') == np.arange(64)).all() and not np.load('$work/o.npy').any() else 1)" ||
  { echo "FAIL: an input file was changed"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] && echo "all cases passed"
exit $((failures > 0))
