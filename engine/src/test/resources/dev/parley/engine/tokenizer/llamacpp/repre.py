import struct, sys
src, dst, pre = sys.argv[1], sys.argv[2], sys.argv[3]
b = open(src,'rb').read()
assert b[:4]==b'GGUF'
ver, nt, nkv = struct.unpack_from('<IQQ', b, 4); off = 24
assert nt == 0, nt
sizes = {0:1,1:1,2:2,3:2,4:4,5:4,6:4,7:1,10:8,11:8,12:8}
def skip_val(t, o):
    if t in sizes: return o + sizes[t]
    if t == 8: n, = struct.unpack_from('<Q', b, o); return o + 8 + n
    if t == 9:
        et, n = struct.unpack_from('<IQ', b, o); o += 12
        if et in sizes: return o + n*sizes[et]
        for _ in range(n): o = skip_val(et, o)
        return o
    raise ValueError(t)
out = bytearray(b[:24]); found=False
for _ in range(nkv):
    start = off
    kl, = struct.unpack_from('<Q', b, off); key = b[off+8:off+8+kl].decode(); off += 8+kl
    t, = struct.unpack_from('<I', b, off); off += 4
    end = skip_val(t, off)
    if key == 'tokenizer.ggml.pre':
        k = key.encode(); v = pre.encode(); found=True
        out += struct.pack('<Q', len(k)) + k + struct.pack('<I', 8) + struct.pack('<Q', len(v)) + v
    else:
        out += b[start:end]
    off = end
assert found
open(dst,'wb').write(out)
