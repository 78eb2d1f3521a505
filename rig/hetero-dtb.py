#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""hetero-dtb.py: a device tree that makes QEMU's arm64 virt machine look
like a big.LITTLE system to the PMU driver.

Usage: rig/hetero-dtb.py DTC IN.dtb OUT.dtb

IN.dtb is the device tree QEMU generates for the guest (-machine
dumpdtb=...). Its one "arm,armv8-pmuv3" node, whose PPI serves every CPU,
becomes one node per CPU that alternate between two CPU types: a
Cortex-A55 PMU on the even CPUs and a Cortex-A76 PMU on the odd ones, each
CPU with its own SPI and an interrupt-affinity naming it, the way SoCs
without PPI partitions describe their PMUs. The vCPUs are all alike, so
both PMUs count the same events; what changes is what the kernel must do
with two core PMUs (F22, tests/hw_hetero.c).

QEMU wires the PMU's overflow to PPI 7 only: these SPIs (unused lines at
the top of the GIC's range) never fire, so the two PMUs count but cannot
sample.
"""
import re
import subprocess
import sys

# SPIs that nothing on the virt machine uses (its devices stop below 176)
FIRST_SPI = 0xe0
TYPES = [('arm,cortex-a55-pmu', 'pmu-a55'), ('arm,cortex-a76-pmu', 'pmu-a76')]


def main():
    dtc, src, dst = sys.argv[1:4]
    dts = subprocess.run([dtc, '-q', '-I', 'dtb', '-O', 'dts', src],
                         check=True, capture_output=True, text=True).stdout

    pmu = re.search(r'\n\tpmu \{\n(.*?)\n\t\};\n', dts, re.S)
    if not pmu or 'arm,armv8-pmuv3' not in pmu.group(1):
        sys.exit('hetero-dtb: no arm,armv8-pmuv3 node in ' + src)

    # cpu@N -> its phandle (QEMU gives each CPU one, for cpu-map)
    cpus = {}
    for m in re.finditer(r'\n\t\tcpu@([0-9a-f]+) \{\n(.*?)\n\t\t\};', dts, re.S):
        ph = re.search(r'phandle = <(0x[0-9a-f]+)>;', m.group(2))
        if not ph:
            sys.exit('hetero-dtb: cpu@%s has no phandle' % m.group(1))
        cpus[int(m.group(1), 16)] = ph.group(1)
    if len(cpus) < 2:
        sys.exit('hetero-dtb: needs at least two CPUs, found %d' % len(cpus))

    nodes = []
    for kind, (compatible, name) in enumerate(TYPES):
        mine = [c for c in sorted(cpus) if c % len(TYPES) == kind]
        irqs = ' '.join('0x00 %#x 0x04' % (FIRST_SPI + c) for c in mine)
        aff = ' '.join(cpus[c] for c in mine)
        nodes.append('\n\t%s {\n\t\tcompatible = "%s";\n'
                     '\t\tinterrupts = <%s>;\n\t\tinterrupt-affinity = <%s>;\n\t};\n'
                     % (name, compatible, irqs, aff))
    dts = dts[:pmu.start()] + ''.join(nodes) + dts[pmu.end():]

    subprocess.run([dtc, '-q', '-I', 'dts', '-O', 'dtb', '-o', dst, '-'],
                   input=dts, check=True, text=True)


if __name__ == '__main__':
    main()
