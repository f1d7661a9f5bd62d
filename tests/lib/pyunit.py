# SPDX-License-Identifier: GPL-2.0
"""Run a directory's unittest tests as tests/run wants them reported.

    python3 -B tests/lib/pyunit.py DIR TEST [MODULE]

Discovers DIR/tests/test_*.py (from DIR) and prints one line per case:
"PASS: TEST/NAME", "FAIL: TEST/NAME (why)" or "SKIP: TEST/NAME (why)",
the tracebacks of failures as "# " lines; exits 1 if a case failed or
none ran. NAME is the test method without "test_", after its module
without "test_" and a dot when MODULE is "module" (ibsw_run/scenario.x).
A failed subTest fails its case once; further failures of it follow as
"# also:" lines.
"""

import sys
import unittest


class Result(unittest.TestResult):
    def __init__(self, test_name, with_module):
        super().__init__()
        self.test_name = test_name
        self.with_module = with_module
        self.failed_cases = set()

    def case_name(self, test):
        # tests.test_scenario.Errors.test_error_cc_on -> scenario.error_cc_on
        parts = test.id().split('.')
        name = parts[-1].removeprefix('test_')
        if self.with_module:
            name = f'{parts[-3].removeprefix("test_")}.{name}'
        return f'{self.test_name}/{name}'

    def addSuccess(self, test):
        super().addSuccess(test)
        if test.id() not in self.failed_cases:
            print(f'PASS: {self.case_name(test)}', flush=True)

    def _bad(self, test, err, what=''):
        text = self._exc_info_to_string(err, test)
        # the exception's first line: a message may go on for lines
        first = (str(err[1]).strip().splitlines() or [''])[0]
        why = f'{err[0].__name__}: {first}' if first else err[0].__name__
        tag = '# also' if test.id() in self.failed_cases else 'FAIL'
        self.failed_cases.add(test.id())
        print(f'{tag}: {self.case_name(test)} ({what}{why[:200]})', flush=True)
        for line in text.rstrip().splitlines():
            print(f'# {line}')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        if not isinstance(test, unittest.TestCase):	# a module that does not import
            print(f'FAIL: {self.test_name}/{test.id()} (error outside a test)')
            print('# ' + self._exc_info_to_string(err, test).replace('\n', '\n# '))
            return
        self._bad(test, err)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._bad(test, err, f'{subtest._subDescription()}: ')

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print(f'SKIP: {self.case_name(test)} ({reason})', flush=True)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        print(f'PASS: {self.case_name(test)}', flush=True)

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        print(f'FAIL: {self.case_name(test)} (unexpected success)', flush=True)


def main(argv):
    directory, test_name = argv[1], argv[2]
    with_module = len(argv) > 3 and argv[3] == 'module'
    sys.path.insert(0, directory)
    suite = unittest.defaultTestLoader.discover(f'{directory}/tests', pattern='test_*.py',
                                                top_level_dir=f'{directory}/tests')
    result = Result(test_name, with_module)
    suite.run(result)
    if result.testsRun == 0:
        print(f'FAIL: {test_name}/discover (no test found)')
    return 0 if result.wasSuccessful() and result.testsRun else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
