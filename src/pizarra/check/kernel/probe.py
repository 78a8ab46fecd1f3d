"""``python -m pizarra.check.kernel.probe``: how this machine isolates a lesson's kernel.

Starts one kernel exactly as a check does, runs one cell that looks at itself, and prints
the launcher's report (the mode, then what holds in it) and what the cell saw: its user,
its capabilities, how many processes it can see, whether it can reach the network.
"""

from __future__ import annotations

import sys

from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult

LOOK = """\
import os, socket
status = dict(l.split(':\\t', 1) for l in open('/proc/self/status').read().splitlines()
              if ':\\t' in l)
print('uid in the kernel:', os.getuid(), '| capabilities:', status['CapEff'].strip(),
      '| no_new_privs:', status['NoNewPrivs'].strip())
print('processes it sees:', sum(p.isdigit() for p in os.listdir('/proc')))
try:
    socket.create_connection(('1.1.1.1', 53), timeout=2).close(); print('network: reachable')
except OSError as exc:
    print('network:', exc.strerror)
"""


def probe() -> tuple[str, tuple[str, ...], RunResult]:
    """The isolation mode, its details, and the result of the looking cell."""
    runner = KernelRunner()
    [result] = runner([CellRequest(LOOK, 30)], 60)
    return (*runner.isolation, result)


def main() -> int:
    mode, details, result = probe()
    print(f"isolation: {mode or 'unknown'}")
    for detail in details:
        print(f"  - {detail}")
    sys.stdout.write(result.stdout + result.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
