#!/usr/bin/env python3
"""Disassembles the hot regions of a JMH perfasm report whose JVM had no disassembler.

JMH's `-prof perfasm` prints compiled code as hex when HotSpot cannot load `hsdis` (Debian's libhsdis0-fcml
exports the pre-JDK-9 interface, which JDK 25 does not use). This reads one "Hottest Region" of such a report,
puts its bytes back at their addresses and disassembles them with binutils' objdump (Intel syntax), with each
instruction's share of the samples where the report gave one.

    scripts/jmh.sh Q8MatmulBench -p tokens=128 -prof "perfasm:events=cpu-clock;top=3" > report.txt
    scripts/perfasm-objdump.py report.txt [REGION]        (REGION: 1 = the hottest, the default)

On these VMs there are no hardware counters: use events=cpu-clock. Samples skid, so read the shares per loop,
not per instruction.
"""
import bisect
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r'^\s*(?:([0-9.]+)%)?\s*0x([0-9a-f]+): ([0-9a-f| ]+)$')
INSN = re.compile(r'\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)')


def region_lines(text, region):
    lines, inside = [], False
    for line in text.split('\n'):
        if line.startswith('....[Hottest Region %d]' % region):
            inside = True
            continue
        if inside and line.startswith('....['):
            break
        if inside:
            lines.append(line)
    if not lines:
        sys.exit('expected a "Hottest Region %d" in the report but found none' % region)
    return lines


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    region = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    memory, share = {}, {}
    for line in region_lines(open(sys.argv[1]).read(), region):
        m = LINE.match(line)
        if not m or ';' in m.group(3):
            continue
        pct, addr, hexes = m.groups()
        at = int(addr, 16)
        for k, byte in enumerate(bytes.fromhex(hexes.replace('|', '').replace(' ', ''))):
            memory[at + k] = byte
        if pct:
            share[at] = share.get(at, 0.0) + float(pct)
    if not memory:
        sys.exit('expected hex code lines in region %d but found none (was hsdis loaded after all?)' % region)
    low, high = min(memory), max(memory)
    with tempfile.NamedTemporaryFile(suffix='.bin') as blob:
        blob.write(bytes(memory.get(a, 0x90) for a in range(low, high + 1)))
        blob.flush()
        listing = subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', '-M', 'intel',
                                  '--adjust-vma=%d' % low, blob.name], capture_output=True, text=True,
                                 check=True).stdout
    insns = [(int(m.group(1), 16), m.group(2)) for m in map(INSN.match, listing.split('\n')) if m and m.group(2)]
    starts = [a for a, _ in insns]
    per_insn = {}
    for at, pct in share.items():  # a sampled chunk counts for the instruction it starts in
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0:
            per_insn[starts[i]] = per_insn.get(starts[i], 0.0) + pct
    for at, text in insns:
        pct = per_insn.get(at)
        print('%7s  %x  %s' % ('%.2f%%' % pct if pct else '', at, text))


if __name__ == '__main__':
    main()
