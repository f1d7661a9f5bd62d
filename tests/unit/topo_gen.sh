#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of the topology generator (tools/topo-gen/tests/test_*.py,
# unittest): its cabling read back by a parser of the tests' own,
# fat-tree-16.net reproduced, the --hosts trees, every usage error, and
# ibswctl's dry-run plan of the generated files when ibswctl is built.
# Prints "PASS: topo_gen/CASE", "FAIL: ... (why)" or "SKIP: ... (why)" per
# case, the tracebacks of failures as "# " lines, and exits 1 if any case
# failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

cd "$root/tools/topo-gen" || exit 1
exec python3 -B - <<'PY'
import sys
import unittest


def case_name(test):
    # test_topo_gen.Errors.test_error_zero_leaves -> topo_gen/error_zero_leaves
    return f'topo_gen/{test.id().split(".")[-1].removeprefix("test_")}'


class Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.failed_cases = set()

    def addSuccess(self, test):
        super().addSuccess(test)
        if test.id() not in self.failed_cases:
            print(f'PASS: {case_name(test)}', flush=True)

    def _bad(self, test, err, what=''):
        text = self._exc_info_to_string(err, test)
        # the exception's first line: a message may go on for lines
        first = (str(err[1]).strip().splitlines() or [''])[0]
        why = f'{err[0].__name__}: {first}' if first else err[0].__name__
        # one FAIL line a case, however many of its subtests failed
        tag = '# also' if test.id() in self.failed_cases else 'FAIL'
        self.failed_cases.add(test.id())
        print(f'{tag}: {case_name(test)} ({what}{why[:200]})', flush=True)
        for line in text.rstrip().splitlines():
            print(f'# {line}')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        if not isinstance(test, unittest.TestCase):	# a module that does not import
            print(f'FAIL: topo_gen/{test.id()} (error outside a test)')
            print('# ' + self._exc_info_to_string(err, test).replace('\n', '\n# '))
            return
        self._bad(test, err)

    # a failed subTest fails its case, and says which parameters failed
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._bad(test, err, f'{subtest._subDescription()}: ')

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print(f'SKIP: {case_name(test)} ({reason})', flush=True)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        print(f'PASS: {case_name(test)}', flush=True)

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        print(f'FAIL: {case_name(test)} (unexpected success)', flush=True)


suite = unittest.defaultTestLoader.discover('tests', pattern='test_*.py', top_level_dir='tests')
result = Result()
suite.run(result)
if result.testsRun == 0:
    print('FAIL: topo_gen/discover (no test found)')
sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)
PY
