# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/rxe_cc.sh: the congestion control of the hosts' HCAs, that
# is of the patched rxe (its sysfs files). The switches' congestion
# control is `ibswctl cc` (ibswctl(8)); the tests call it directly.

# rxe_cc_file HOST FILE: a file of the patched rxe's congestion control
# of HOST (ports/1/cc, drivers/infiniband/sw/rxe/README.md)
rxe_cc_file() { echo "/sys/class/infiniband/${HOST_RXE[$1]}/ports/1/cc/$2"; }
rxe_cc_get() { cat "$(rxe_cc_file "$1" "$2")"; }

# rxe_cc_state HOST: every setting of HOST's congestion control, to
# compare before and after a refused change
rxe_cc_state() {
	local f

	for f in enabled port_control time_scale link_rate cct ccti_limit sl_settings becn_coalesce; do
		echo "$f: $(rxe_cc_get "$1" "$f")"
	done
}
