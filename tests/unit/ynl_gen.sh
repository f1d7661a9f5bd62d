#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink code generated from Documentation/netlink/specs/ibsw.yaml
# (uapi header, kernel policies and ops) is what the spec generates now:
# nobody edited a generated file, and the spec passes the kernel's schema.
set -u
. "$(dirname "$0")/../../scripts/common.sh"

if out=$("$IBSW_ROOT/scripts/ynl-gen" --check 2>&1); then
	echo "PASS: ynl-gen/generated-files-match-spec"
else
	echo "FAIL: ynl-gen/generated-files-match-spec"
	sed 's/^/# /' <<<"$out"
	exit 1
fi
