# SPDX-License-Identifier: GPL-2.0
"""Congestion Control Tables (IBA annex A10) for rxe's HCA congestion
control.

A CCT entry is CCT_Shift (2 bits) : CCT_Multiplier (14 bits); rxe reads it
as an injection rate delay (IRD) of multiplier x T / 2^shift, T the time of
the largest packet of the path MTU (MTU + 58 wire bytes) at the link's data
rate, in the fabric's emulated time (drivers/infiniband/sw/rxe/README.md).
Tables are described by their IRDs in microseconds and converted here.
"""

import re

MAX_PKT_EXTRA = 58		# LRH..VCRC of the largest packet beyond the MTU
MULT_MAX = 0x3fff
ENTRIES_MAX = 256		# rxe's ControlTableCap: 4 blocks of 64

# Data rate of one lane in bit/s, and lanes per width (ibsw's rate names)
LANE_BPS = {'SDR': 2e9, 'DDR': 4e9, 'QDR': 8e9, 'FDR10': 10e9, 'FDR': 14.0625e9 * 64 / 66,
            'EDR': 25e9, 'HDR': 50e9, 'NDR': 100e9}
WIDTHS = {'1x': 1, '2x': 2, '4x': 4, '8x': 8, '12x': 12}

# Shapes: IRD(i) in microseconds for entry i. seed002 is the table of seed
# 002 (section VII.B): i^2 * 7 / 1062 us over 128 entries.
SHAPES = ('quadratic', 'linear', 'seed002')


class CctError(ValueError):
    pass


def rate_bps(word):
    """A rate name (4xQDR, 1x SDR) or a number of bit/s."""
    w = word.replace(' ', '')
    m = re.fullmatch(r'(\d+x)([A-Z0-9]+)', w, re.IGNORECASE)
    if m and m.group(1).lower() in WIDTHS and m.group(2).upper() in LANE_BPS:
        return WIDTHS[m.group(1).lower()] * LANE_BPS[m.group(2).upper()]
    try:
        bps = float(w)
    except ValueError:
        raise CctError(f"bad rate '{word}' (a name such as 4xQDR, or bit/s)") from None
    if not bps > 0:
        raise CctError(f"bad rate '{word}' (must be > 0)")
    return bps


def max_packet_us(bps, mtu):
    """Time of the largest packet of the MTU on the link, in microseconds."""
    return (mtu + MAX_PKT_EXTRA) * 8 / bps * 1e6


def entry(ird_us, unit_us):
    """(shift, multiplier) closest to ird_us, with the finest shift whose
    multiplier fits in 14 bits."""
    if ird_us < 0:
        raise CctError(f'negative IRD {ird_us} us')
    if ird_us == 0:
        return (0, 0)
    for shift in (3, 2, 1, 0):
        mult = round(ird_us * (1 << shift) / unit_us)
        if mult <= MULT_MAX:
            return (shift, mult)
    raise CctError(f'IRD {ird_us:g} us is beyond the largest entry '
                   f'({MULT_MAX * unit_us:g} us at this rate and MTU)')


def ird_us(e, unit_us):
    """The IRD of an entry, in microseconds."""
    shift, mult = e
    return mult * unit_us / (1 << shift)


def shape(name, entries=128, coef=None):
    """IRDs in microseconds of a table of the given shape: quadratic
    coef * i^2, linear coef * i, or seed002 (quadratic, 7/1062, 128)."""
    if name == 'seed002':
        name, coef = 'quadratic', 7 / 1062 if coef is None else coef
    if name not in ('quadratic', 'linear'):
        raise CctError(f"unknown shape '{name}' ({', '.join(SHAPES)})")
    if not 1 <= entries <= ENTRIES_MAX:
        raise CctError(f'{entries} entries: 1 to {ENTRIES_MAX}')
    if coef is None:
        raise CctError(f'shape {name} needs a coefficient (us)')
    if coef < 0:
        raise CctError(f'negative coefficient {coef}')
    power = 2 if name == 'quadratic' else 1
    return [coef * i ** power for i in range(entries)]


def table(irds_us, bps, mtu):
    """CCT entries for IRDs (microseconds) on a link of bps at MTU."""
    if len(irds_us) > ENTRIES_MAX:
        raise CctError(f'{len(irds_us)} entries: at most {ENTRIES_MAX}')
    unit = max_packet_us(bps, mtu)
    return [entry(us, unit) for us in irds_us]


def format_table(entries, sep=' '):
    """'shift:multiplier' words: rxe's cc/cct form (sep ' ') or OpenSM's
    cc_cct (sep ',')."""
    return sep.join(f'{s}:{m}' for s, m in entries)


def parse_table(text):
    """The inverse of format_table: spaces or commas between entries."""
    out = []
    for word in re.split(r'[\s,]+', text.strip()):
        m = re.fullmatch(r'([0-3]):(\d+)', word)
        if not m or int(m.group(2)) > MULT_MAX:
            raise CctError(f"bad CCT entry '{word}' (SHIFT:MULTIPLIER, shift 0-3, "
                           f'multiplier 0-{MULT_MAX})')
        out.append((int(m.group(1)), int(m.group(2))))
    if not out or len(out) > ENTRIES_MAX:
        raise CctError(f'a CCT has 1 to {ENTRIES_MAX} entries')
    return out


def parse_spec(text):
    """A scenario's cct value: an explicit list of entries (commas between
    them), or SHAPE[:ENTRIES[:COEF_US]] (seed002, quadratic, linear).
    Returns ('table', entries) or ('irds', IRDs in microseconds)."""
    if re.fullmatch(r'\d+:\d+([,\s]+\d+:\d+)*', text.strip()):
        return 'table', parse_table(text)
    parts = text.split(':')
    name = parts[0]
    try:
        n = int(parts[1]) if len(parts) > 1 else 128
        coef = float(parts[2]) if len(parts) > 2 else None
    except ValueError:
        raise CctError(f"bad cct '{text}' (SHIFT:MULT,... or SHAPE[:ENTRIES[:COEF_US]])") from None
    if len(parts) > 3:
        raise CctError(f"bad cct '{text}' (SHIFT:MULT,... or SHAPE[:ENTRIES[:COEF_US]])")
    return 'irds', shape(name, n, coef)


def spec(text, bps, mtu):
    """The entries of a scenario's cct value (parse_spec) on a link of bps
    at MTU."""
    kind, value = parse_spec(text)
    return value if kind == 'table' else table(value, bps, mtu)
