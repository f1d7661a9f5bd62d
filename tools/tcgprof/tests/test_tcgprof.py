# SPDX-License-Identifier: GPL-2.0
"""Tests of tcgprof: the report's arithmetic on hand-made snapshots, and
the plugin loaded by QEMU (its trigger protocol; no guest runs)."""

import importlib.machinery
import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, '..')
ROOT = os.path.abspath(os.path.join(TOOL, '..', '..'))
BUILD = os.environ.get('IBSW_BUILD', os.path.join(ROOT, 'build'))
PLUGIN = os.path.join(BUILD, 'tcgprof', 'tcgprof.so')
QEMU = os.environ.get('IBSW_QEMU', 'qemu-system-x86_64')


def load_report():
    path = os.path.join(TOOL, 'tcgprof-report')
    loader = importlib.machinery.SourceFileLoader('tcgprof_report', path)
    spec = importlib.util.spec_from_loader('tcgprof_report', loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


report = load_report()

KALLSYMS = '''\
ffffffff81000000 T _stext
ffffffff81000100 T func_a
ffffffff81000200 t func_b
ffffffff81000300 D some_data
ffffffffc0001000 t mod_x\t[ibsw]
ffffffffc0001080 T mod_y\t[ibsw]
0000000000000000 T hidden_from_user
'''


def write(d, name, text):
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


class Report(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        write(self.d, 'kallsyms', KALLSYMS)

    def test_instructions_per_packet(self):
        # func_a: block of 10 insns run 5 -> 25 times (200 insns), and a
        # retranslation of the same address (3 insns, 0 -> 10: 30);
        # func_b+0x10: 4 insns 100 times, all in the window (400);
        # mod_x: 2 insns, not run in the window; user space 7 x 20 (140)
        write(self.d, 'tcgprof-p-start.txt',
              'ffffffff81000100 10 5\nffffffffc0001000 2 50\n400000 7 1\n')
        write(self.d, 'tcgprof-p-end.txt',
              'ffffffff81000100 10 25\nffffffff81000100 3 10\n'
              'ffffffff81000210 4 100\nffffffffc0001000 2 50\n'
              '400000 7 21\n')
        write(self.d, 'packets.txt', 'p 10\n')
        paths, packets, per = report.per_packet(self.d)
        self.assertEqual(paths, ['p'])
        self.assertEqual(packets, {'p': 10})
        self.assertEqual(per['p'], {
            ('func_a', 'vmlinux'): 23.0,
            ('func_b', 'vmlinux'): 40.0,
            ('[user]', 'user'): 14.0,
        })

    def test_module_symbols(self):
        addrs, syms = report.load_kallsyms(os.path.join(self.d, 'kallsyms'))
        self.assertEqual(report.symbolize(addrs, syms, 0xffffffffc0001090),
                         ('mod_y', 'ibsw'))
        self.assertEqual(report.symbolize(addrs, syms, 0xffffffffc0001000),
                         ('mod_x', 'ibsw'))
        # data symbols and zeroed addresses are not functions
        self.assertEqual(report.symbolize(addrs, syms, 0xffffffff81000350),
                         ('func_b', 'vmlinux'))
        self.assertEqual(report.symbolize(addrs, syms, 0x7fff0000),
                         ('[user]', 'user'))

    def test_paths_side_by_side(self):
        for p, n in (('veth', 100), ('ibsw', 50)):
            write(self.d, f'tcgprof-{p}-start.txt', 'ffffffff81000100 10 0\n')
            write(self.d, f'tcgprof-{p}-end.txt', 'ffffffff81000100 10 1000\n')
        write(self.d, 'packets.txt', 'veth 100\nibsw 50\n')
        out = subprocess.run([os.path.join(TOOL, 'tcgprof-report'), self.d],
                             capture_output=True, text=True, check=True).stdout
        self.assertIn('| instructions per packet, all | 100 | 200 |', out)
        self.assertIn('| user | 0 | 0 |', out)
        self.assertIn('| kernel | 100 | 200 |', out)
        self.assertIn('| kernel, against veth | 1.000 | 2.000 |', out)
        self.assertIn('| func_a | vmlinux | 100.0 | 200.0 | +100.0 |', out)

    def errors(self, packets, snap, want):
        write(self.d, 'packets.txt', packets)
        write(self.d, 'tcgprof-p-start.txt', '')
        write(self.d, 'tcgprof-p-end.txt', snap)
        r = subprocess.run([os.path.join(TOOL, 'tcgprof-report'), self.d],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(want, r.stderr)

    def test_error_bad_snapshot_line(self):
        self.errors('p 1\n', 'ffffffff81000100 10 1\nffffffff81000100 x\n',
                    'tcgprof-p-end.txt:2: not "vaddr insns count"')

    def test_error_no_packets(self):
        self.errors('p 0\n', '', 'packets.txt:1: p: no packets')

    def test_error_bad_packets_line(self):
        self.errors('p\n', '', 'packets.txt:1: not "PATH PACKETS"')

    def test_error_missing_snapshot(self):
        write(self.d, 'packets.txt', 'p 1\n')
        write(self.d, 'tcgprof-p-start.txt', '')
        r = subprocess.run([os.path.join(TOOL, 'tcgprof-report'), self.d],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('tcgprof-p-end.txt: missing', r.stderr)

    def test_error_missing_kallsyms(self):
        os.unlink(os.path.join(self.d, 'kallsyms'))
        self.errors('p 1\n', '', 'kallsyms: missing')

    def test_error_empty_packets(self):
        self.errors('', '', 'packets.txt: no runs')


@unittest.skipUnless(shutil.which(QEMU), f'no {QEMU}')
class Plugin(unittest.TestCase):
    """QEMU loads the plugin and stops at once (-S): no guest code runs,
    but the plugin's trigger thread does."""

    @classmethod
    def setUpClass(cls):
        subprocess.run(['make', '-s', '-C', TOOL], check=True,
                       stdout=subprocess.DEVNULL)

    def qemu(self, args):
        return subprocess.Popen(
            [QEMU, '-nodefaults', '-display', 'none', '-accel', 'tcg', '-S',
             '-plugin', ','.join([PLUGIN] + args)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_gone(self, path, secs=20):
        end = time.time() + secs
        while os.path.exists(path) and time.time() < end:
            time.sleep(0.05)
        return not os.path.exists(path)

    def test_snapshot_on_trigger_and_at_exit(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        q = self.qemu([f'dir={d}'])
        self.addCleanup(q.kill)
        write(d, 'tcgprof.snap', 'before-1\n')
        self.assertTrue(self.wait_gone(os.path.join(d, 'tcgprof.snap')))
        # nothing ran: an empty snapshot, no partial file left
        self.assertEqual(open(os.path.join(d, 'tcgprof-before-1.txt')).read(), '')
        write(d, 'tcgprof.snap', '../escape\n')
        self.assertTrue(self.wait_gone(os.path.join(d, 'tcgprof.snap')))
        q.send_signal(signal.SIGTERM)
        _, err = q.communicate(timeout=30)
        self.assertIn('bad label', err)
        self.assertEqual(sorted(os.listdir(d)),
                         ['tcgprof-before-1.txt', 'tcgprof-exit.txt'])

    def test_needs_dir(self):
        q = self.qemu([])
        _, err = q.communicate(timeout=30)
        self.assertNotEqual(q.returncode, 0)
        self.assertIn('dir=DIR is needed', err)

    def test_unknown_argument(self):
        q = self.qemu(['dir=/tmp', 'rate=1'])
        _, err = q.communicate(timeout=30)
        self.assertNotEqual(q.returncode, 0)
        self.assertIn('unknown argument rate=1', err)
