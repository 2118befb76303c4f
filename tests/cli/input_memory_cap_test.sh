#!/usr/bin/env bash
# ctest cli/input_memory_cap (#30): a 1 MB input file never costs more than 256 MiB before it is
# refused. Each case is a file of about 1 MB whose header claims far more than it holds (a .npz
# member, a .npy array, IDX images, a .mlsg graph, a trace line, nested JSON); the real binary
# must refuse it (exit 1 or 2, never a crash or 0) with GNU time's peak RSS under the cap.
# Usage: input_memory_cap_test.sh <mlsys binary> <work dir>
set -uo pipefail
bin=$1 work=$2
cap_kib=$((256 * 1024))
if [[ ! -x /usr/bin/time ]]; then echo "SKIPPED [no-gnu-time]: /usr/bin/time is missing (scripts/setup installs it)"; exit 77; fi
rm -rf "$work" && mkdir -p "$work/idx"
python3 - "$work" <<'PY'
import io, struct, sys, zipfile, json
w = sys.argv[1]
mb = 1 << 20
def npy(shape, body, dtype='<f4'):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (dtype, repr(tuple(shape)))
    hdr = hdr + ' ' * (63 - (10 + len(hdr)) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + body
# .npz: a graph archive whose features member claims 4 GiB (sizes patched in both headers);
# its .npy header also claims more rows than the member holds.
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_STORED) as z:
    z.writestr('x.npy', npy((1000, 250), b'\0' * mb))
    z.writestr('edge_index.npy', npy((2, 2), struct.pack('<4q', 0, 1, 1, 0), '<i8'))
    z.writestr('y.npy', npy((2,), struct.pack('<2q', 0, 1), '<i8'))
data = bytearray(buf.getvalue())
lh = data.find(b'PK\x03\x04')
struct.pack_into('<I', data, lh + 22, 0xFFFFFFF0)          # local header: uncompressed size
cd = data.find(b'PK\x01\x02')
struct.pack_into('<I', data, cd + 24, 0xFFFFFFF0)          # central directory: uncompressed size
open(w + '/big.npz', 'wb').write(bytes(data))
# IDX images claiming 2^31 images of 28 x 28 with 1 MB of pixels, and a labels file.
open(w + '/idx/train-images-idx3-ubyte', 'wb').write(b'\0\0\x08\x03' + struct.pack('>III', 1 << 31, 28, 28) + b'\0' * mb)
open(w + '/idx/train-labels-idx1-ubyte', 'wb').write(b'\0\0\x08\x01' + struct.pack('>I', 1 << 31) + b'\0' * 1000)
open(w + '/idx/t10k-images-idx3-ubyte', 'wb').write(b'\0\0\x08\x03' + struct.pack('>III', 1 << 31, 28, 28) + b'\0' * 1000)
open(w + '/idx/t10k-labels-idx1-ubyte', 'wb').write(b'\0\0\x08\x01' + struct.pack('>I', 1000) + b'\0' * 1000)
# .mlsg (gnn/graph/binary_graph.cpp): a valid header claiming 2^40 nodes and edges, dense
# features of 2^20 columns, the section offsets at 0, then 1 MB of zeros.
hdr = b'MLSYSGR1' + struct.pack('<II4q', 1, 0, 1 << 40, 1 << 40, 1 << 20, 4) + struct.pack('<7Q', *([128] * 7))
hdr += struct.pack('<qQ', 0, 0)
hdr += b'\0' * (128 - len(hdr))
open(w + '/big.mlsg', 'wb').write(hdr + b'\0' * mb)
# A trace whose one line is 1 MB long, and jobs JSONL that nests 1 MB deep.
open(w + '/long_line.csv', 'w').write('id,submit_time,duration,num_gpus\n' + 'a' * mb + ',0,10,1\n')
open(w + '/deep.jsonl', 'w').write('[' * mb + '\n')
PY
status=0
check() {  # name, allowed exit codes ("1 2": a refusal; "0 1 2": a valid input, memory checked), args...
  local name=$1 allowed=$2; shift 2
  /usr/bin/time -f "%M" -o "$work/$name.rss" "$bin" "$@" --out "$work/out_$name" -q > "$work/$name.out" 2> "$work/$name.err"
  local rc=$? rss
  rss=$(tail -1 "$work/$name.rss")
  if [[ " $allowed " != *" $rc "* ]]; then
    echo "FAIL $name: exit $rc (expected one of: $allowed): $(head -c 300 "$work/$name.err")"; status=1
  elif (( rss > cap_kib )); then
    echo "FAIL $name: peak RSS $((rss / 1024)) MiB > 256 MiB before the refusal"; status=1
  else
    echo "ok   $name: exit $rc, peak RSS $((rss / 1024)) MiB: $(grep -m1 -o 'error: .*' "$work/$name.err" | head -c 160)"
  fi
}
check npz "1 2" train-gnn --graph "$work/big.npz"
check mlsg "1 2" train-gnn --graph "$work/big.mlsg"
check idx "1 2" coopt --set coopt.data.source=idx --set coopt.data.dir="$work/idx"
check trace "0 1 2" simulate --trace "$work/long_line.csv"  # a 1 MB job id is valid: only memory is checked
check jobs "1 2" schedmate advise --jobs "$work/deep.jsonl"
exit $status
