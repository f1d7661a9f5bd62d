# SPDX-License-Identifier: GPL-2.0
"""The committed topologies that topo-gen made are what it makes today.

A topology file whose header says it was made by
"tools/topo-gen/topo-gen ARGS" is compared, byte for byte, with the output
of that command: a change to the generator that would change a shipped
fabric (and the scenarios and results that name it) fails here until the
file is regenerated on purpose.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
TOPO_GEN = os.path.join(ROOT, 'tools', 'topo-gen', 'topo-gen')
# The command may wrap over the header's comment lines
MADE_BY = re.compile(r'made by\s+"(tools/topo-gen/topo-gen [^"]+)"')


def made_by(path):
    """The topo-gen command a file's header names, or None."""
    header = []
    with open(path) as f:
        for line in f:
            if not line.startswith('#'):
                break
            header.append(line[1:].strip())
    m = MADE_BY.search(' '.join(header))
    return shlex.split(m.group(1)) if m else None


class Committed(unittest.TestCase):
    def test_generated_topologies(self):
        files = [p for p in sorted(glob.glob(os.path.join(ROOT, 'topologies', '*.net')))
                 if made_by(p)]
        # fat-tree-128.net at least; a header this test cannot read is a bug
        self.assertIn('fat-tree-128.net', [os.path.basename(p) for p in files])
        for path in files:
            with self.subTest(topology=os.path.basename(path)):
                argv = made_by(path)
                out = subprocess.run([sys.executable, TOPO_GEN] + argv[1:],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     check=True, text=True).stdout
                with open(path) as f:
                    self.assertEqual(out, f.read(), '%s differs from "%s"'
                                     % (path, ' '.join(argv)))


if __name__ == '__main__':
    unittest.main()
