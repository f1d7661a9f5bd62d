#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of the experiment runner's Python modules
# (tools/ibsw-run/tests/test_*.py, unittest): the scenario parser and its
# errors, the statistics, the report and its plots on a fixture run.
# Prints "PASS: ibsw_run/MODULE.CASE", "FAIL: ... (why)" or "SKIP: ...
# (why)" per case, the tracebacks of failures as "# " lines, and exits 1
# if any case failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

cd "$root/tools/ibsw-run" || exit 1
exec python3 -B - <<'PY'
import sys
import unittest

sys.path.insert(0, '.')


def case_name(test):
    # tests.test_scenario.Errors.test_error_cc_on -> scenario.error_cc_on
    parts = test.id().split('.')
    module = parts[-3].removeprefix('test_')
    return f'ibsw_run/{module}.{parts[-1].removeprefix("test_")}'


class Result(unittest.TestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print(f'PASS: {case_name(test)}', flush=True)

    def _bad(self, test, err):
        text = self._exc_info_to_string(err, test)
        last = text.strip().splitlines()[-1]
        print(f'FAIL: {case_name(test)} ({last[:200]})', flush=True)
        for line in text.rstrip().splitlines():
            print(f'# {line}')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        if not isinstance(test, unittest.TestCase):	# a module that does not import
            print(f'FAIL: ibsw_run/{test.id()} (error outside a test)')
            print('# ' + self._exc_info_to_string(err, test).replace('\n', '\n# '))
            return
        self._bad(test, err)

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
    print('FAIL: ibsw_run/discover (no test found)')
sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)
PY
