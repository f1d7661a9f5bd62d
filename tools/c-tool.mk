# SPDX-License-Identifier: GPL-2.0
#
# The build of a C tool under tools/ with cmocka unit tests, included by its
# Makefile after it has set:
#
#   TOOL          its name in test output and messages (ibswctl, dcms)
#   BIN           the program, built from main.c and $(SRCS)
#   SRCS          the sources besides main.c, also linked into the tests
#   TESTS         NAME for each tests/NAME_test.c
#   TEST_HELPERS  more test sources (optional)
#   TEST_CFLAGS   flags of the test sources (optional)
#   LDLIBS        libraries of the program
#   HEADERS       HEADER:PACKAGE pairs that 'deps' checks (cmocka is added)
#   USE_TOPO      yes: link tools/lib's libibswtopo.a, with the uapi headers
#   USE_GENL      yes: link tools/lib's libibswgenl.a (the ibsw genl socket
#                 and its messages)
#   USE_JSON      yes: link tools/lib's libibswjson.a (the JSON writer)
#
# and gets: all, test (plain and ASan+UBSan, then $(TEST_EXTRA) if set),
# test-plain, test-asan, test-valgrind, deps and clean. Everything is built
# in $(IBSW_BUILD)/tools/$(TOOL), plain and sanitized side by side.

IBSW_ROOT ?= $(abspath $(CURDIR)/../..)
IBSW_BUILD ?= $(IBSW_ROOT)/build
export IBSW_BUILD
O := $(IBSW_BUILD)/tools/$(TOOL)
LIB_O := $(IBSW_BUILD)/tools/lib

CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -Wundef
BASE_CPPFLAGS := -I$(CURDIR)
ifneq ($(USE_TOPO)$(USE_GENL)$(USE_JSON),)
BASE_CPPFLAGS += -I$(IBSW_ROOT)/include -I$(CURDIR)/../lib
endif
ifeq ($(USE_TOPO),yes)
TOPO_LIB = $(LIB_O)/$(1)/libibswtopo.a
endif
ifeq ($(USE_GENL),yes)
GENL_LIB = $(LIB_O)/$(1)/libibswgenl.a
endif
ifeq ($(USE_JSON),yes)
JSON_LIB = $(LIB_O)/$(1)/libibswjson.a
endif
BASE_CFLAGS := -std=gnu11 $(WARNINGS) -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:exitcode=23 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
HEADERS += cmocka.h:libcmocka-dev
PLAIN_BINS := $(TESTS:%=$(O)/plain/%)
ASAN_BINS := $(TESTS:%=$(O)/asan/%)
RUN_TESTS := $(CURDIR)/../lib/tests/run-tests

.PHONY: all test test-plain test-asan test-valgrind deps clean FORCE
.SECONDARY:

all: $(O)/$(BIN)

$(O)/$(BIN): $(O)/plain/$(BIN)
	cp $< $@

# tools/lib, plain and sanitized: its own Makefile knows how to build them
# (a rule each: a pattern rule with several targets would make only one)
$(LIB_O)/%/libibswtopo.a: FORCE
	@$(MAKE) --no-print-directory -C ../lib $@
$(LIB_O)/%/libibswgenl.a: FORCE
	@$(MAKE) --no-print-directory -C ../lib $@
$(LIB_O)/%/libibswjson.a: FORCE
	@$(MAKE) --no-print-directory -C ../lib $@

FORCE:

# Rules of one build flavour: $(1) its name, $(2) its extra flags.
define flavour
$(O)/$(1)/%.o: %.c | $(O)/$(1)/tests deps
	$$(CC) $$(CPPFLAGS) $(BASE_CPPFLAGS) $$(CFLAGS) $$(BASE_CFLAGS) $(2) -c $$< -o $$@

$(O)/$(1)/tests/%.o: tests/%.c | $(O)/$(1)/tests deps
	$$(CC) $$(CPPFLAGS) $(BASE_CPPFLAGS) $$(CFLAGS) $$(BASE_CFLAGS) $(2) $$(TEST_CFLAGS) \
		-c $$< -o $$@

$(O)/$(1)/lib$(TOOL).a: $(SRCS:%.c=$(O)/$(1)/%.o)
	$$(AR) rcs $$@ $$^

$(O)/$(1)/$(BIN): $(O)/$(1)/main.o $(O)/$(1)/lib$(TOOL).a $(call TOPO_LIB,$(1)) \
		$(call GENL_LIB,$(1)) $(call JSON_LIB,$(1))
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)

$(O)/$(1)/%: $(O)/$(1)/tests/%_test.o $(TEST_HELPERS:%.c=$(O)/$(1)/%.o) \
		$(O)/$(1)/lib$(TOOL).a $(call TOPO_LIB,$(1)) $(call GENL_LIB,$(1)) \
		$(call JSON_LIB,$(1))
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS) -lcmocka

$(O)/$(1)/tests:
	mkdir -p $$@
endef
$(eval $(call flavour,plain,))
$(eval $(call flavour,asan,$(SAN_FLAGS)))

# Say what is missing, in the form tests/run counts, rather than a compiler
# error. cmocka.h needs the headers before it.
CMOCKA_PRE := \#include <stdarg.h>\n\#include <stddef.h>\n\#include <stdint.h>\n\#include <setjmp.h>\n
deps:
	@for hp in $(HEADERS); do \
		h=$${hp%%:*}; p=$${hp#*:}; pre=; \
		[ "$$h" = cmocka.h ] && pre='$(CMOCKA_PRE)'; \
		printf "$$pre#include <$$h>\n" | $(CC) -E -x c - >/dev/null 2>&1 || \
			{ echo "FAIL: $(TOOL) ($$h not found: install $$p)"; exit 1; }; \
	done

test: $(PLAIN_BINS) $(ASAN_BINS) $(O)/$(BIN)
	@rc=0; $(RUN_TESTS) $(TOOL) $(PLAIN_BINS) || rc=1; \
	$(SAN_ENV) $(RUN_TESTS) $(TOOL)-asan $(ASAN_BINS) || rc=1; \
	$(if $(TEST_EXTRA),$(TEST_EXTRA) || rc=1;) \
	exit $$rc

test-plain: $(PLAIN_BINS)
	@$(RUN_TESTS) $(TOOL) $(PLAIN_BINS)

test-asan: $(ASAN_BINS)
	@$(SAN_ENV) $(RUN_TESTS) $(TOOL)-asan $(ASAN_BINS)

test-valgrind: $(PLAIN_BINS)
	@for t in $(PLAIN_BINS); do \
		valgrind -q --error-exitcode=25 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect $$t >/dev/null || exit 1; \
	done; echo "valgrind: clean"

clean:
	rm -rf $(O)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
