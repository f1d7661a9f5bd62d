# SPDX-License-Identifier: GPL-2.0
"""ibsw-run: run congestion experiments on an ibsw fabric and report them.

scenario parses and checks scenario files, guest runs one in the VM,
stats and report turn the raw samples into tables, summary.json and plots
(plot drives gnuplot). See Documentation/experiments.md.
"""
