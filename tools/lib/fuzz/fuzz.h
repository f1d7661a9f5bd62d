/* SPDX-License-Identifier: GPL-2.0 */
/* The entry point libFuzzer calls with each input (its own header has none) */
#ifndef IBSW_FUZZ_H
#define IBSW_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* IBSW_FUZZ_H */
