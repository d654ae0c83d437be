# lair — one build for the server (laird), the client (lair), tests and
# benchmarks. Sources are found by directory, so adding a module never needs
# an edit here:
#   common/*.c               shared by everything
#   proto/*.c                protocol codecs
#   server/games/**/*.c      the pure game kinds
#   server/*.c               laird (server/main.c holds main)
#   client-cli/*.c           lair (client-cli/main.c holds main)
#   tests/unit/test_*.c      one unit-test binary each (linked with the modules'
#                            static archives, build/lib/lib*.a)
#   tests/bench/bench_*.c    one benchmark binary each
#
# make            build laird and lair into build/
# make test       build, then run every test (also under ASan+UBSan)
# make bench      optimised benchmarks; they print their figures
# make deps       install missing Debian packages (apt-get)
# make asan       the sanitizer build into build-asan/

BUILD    ?= build
CC       ?= cc
# libcrypto: laird calls it itself (passhash.c), so it links it itself, not
# only through libwebsockets. hiredis: the Redis bus of cluster mode
# (server/redis_uv.c); libpq: its PostgreSQL store (server/store_pg.c).
PKGS     := libwebsockets libuv libcjson sqlite3 libcrypto hiredis libpq
OPT      ?= -O2 -g
SAN      ?=
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS := $(CFLAGS_BASE) $(OPT) $(SAN) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SAN) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm
# laird and the benchmarks of its code allocate with jemalloc (as Redis
# does): laird's hot path builds and frees many small cJSON nodes and
# message buffers, and jemalloc does that ~20% cheaper in laird's CPU a
# decision than glibc's malloc (docs/ARCHITECTURE.md, "Memory"). Not
# under a sanitizer, which brings its own allocator; `make MALLOC=libc`
# builds without it. Unit tests and lair keep glibc's (valgrind's default).
MALLOC ?= jemalloc
MALLOC_LIBS := $(if $(SAN),,$(if $(filter jemalloc,$(MALLOC)),-ljemalloc))

COMMON_SRC := $(wildcard common/*.c)
PROTO_SRC  := $(wildcard proto/*.c)
GAMES_SRC  := $(wildcard server/games/*.c server/games/*/*.c)
SERVER_SRC := $(filter-out server/main.c,$(wildcard server/*.c))
CLIENT_SRC := $(filter-out client-cli/main.c,$(wildcard client-cli/*.c))
TEST_SRC   := $(wildcard tests/unit/test_*.c)
BENCH_SRC  := $(wildcard tests/bench/bench_*.c)

# Quiet by default (one line per file); `make V=1` shows the commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
CORE_OBJ   := $(call obj,$(COMMON_SRC) $(PROTO_SRC) $(GAMES_SRC))
SERVER_OBJ := $(call obj,$(SERVER_SRC))
CLIENT_OBJ := $(call obj,$(CLIENT_SRC))
# migrations/*.sql are embedded in laird (it needs no source tree at run time).
MIGRATIONS := $(sort $(wildcard migrations/*.sql))
PG_MIGRATIONS := $(sort $(wildcard migrations/pg/*.sql))
SERVER_OBJ += $(BUILD)/gen/migrations.o $(BUILD)/gen/pg_migrations.o
# crawl's content (server/games/crawl/data/*.json) is embedded the same way.
CRAWL_DATA := $(sort $(wildcard server/games/crawl/data/*.json))
CORE_OBJ   += $(BUILD)/gen/crawl_data.o
# So is the browser client, web/ (server/http_static.h); a file added or
# removed changes its directory, which rebuilds the table.
WEB_FILES := $(filter-out web/embed.sh web/README.md,$(shell find web -type f 2>/dev/null | LC_ALL=C sort))
SERVER_OBJ += $(BUILD)/gen/web_files.o
# Tests, benchmarks and fuzz targets link static archives of the modules,
# so that each takes only the objects it uses.
ARCHIVES   := $(patsubst %,$(BUILD)/lib/lib%.a,client server games proto common)
LINK_ARCHIVES := -Wl,--start-group $(ARCHIVES) -Wl,--end-group $(LIBS)
TEST_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC))
BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

LAIRD := $(BUILD)/laird
LAIR  := $(BUILD)/lair

.PHONY: all test unit bench deps asan clean run
.SECONDARY:

all: $(LAIRD) $(LAIR) $(TEST_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC    $<"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/migrations.c: $(MIGRATIONS) common/embed_text.sh migrations
	@mkdir -p $(dir $@)
	sh common/embed_text.sh store_int.h store_migration store_migrations store_n_migrations \
		--numbered $(MIGRATIONS) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/migrations.o: $(BUILD)/gen/migrations.c
	$(CC) $(ALL_CFLAGS) -Iserver -MMD -MP -c $< -o $@

$(BUILD)/gen/pg_migrations.c: $(PG_MIGRATIONS) common/embed_text.sh migrations/pg
	@mkdir -p $(dir $@)
	sh common/embed_text.sh store_int.h store_migration store_pg_migrations store_pg_n_migrations \
		--numbered $(PG_MIGRATIONS) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/pg_migrations.o: $(BUILD)/gen/pg_migrations.c
	$(CC) $(ALL_CFLAGS) -Iserver -MMD -MP -c $< -o $@

$(BUILD)/gen/crawl_data.c: $(CRAWL_DATA) common/embed_text.sh
	@mkdir -p $(dir $@)
	sh common/embed_text.sh crawl_data.h cr_data_file cr_data_files cr_data_n_files \
		$(CRAWL_DATA) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/crawl_data.o: $(BUILD)/gen/crawl_data.c
	$(CC) $(ALL_CFLAGS) -Iserver/games/crawl -MMD -MP -c $< -o $@

$(BUILD)/gen/web_files.c: $(WEB_FILES) web/embed.sh $(shell find web -type d 2>/dev/null)
	@mkdir -p $(dir $@)
	sh web/embed.sh $(WEB_FILES) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/web_files.o: $(BUILD)/gen/web_files.c
	$(CC) $(ALL_CFLAGS) -Iserver -MMD -MP -c $< -o $@

$(LAIRD): $(BUILD)/server/main.o $(SERVER_OBJ) $(CORE_OBJ)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

$(LAIR): $(BUILD)/client-cli/main.o $(CLIENT_OBJ) $(CORE_OBJ)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/lib/libcommon.a: $(call obj,$(COMMON_SRC))
$(BUILD)/lib/libproto.a: $(call obj,$(PROTO_SRC))
$(BUILD)/lib/libgames.a: $(call obj,$(GAMES_SRC)) $(BUILD)/gen/crawl_data.o
$(BUILD)/lib/libserver.a: $(SERVER_OBJ)
$(BUILD)/lib/libclient.a: $(CLIENT_OBJ)
$(BUILD)/lib/%.a:
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  AR    $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/tests/unit/main.o $(ARCHIVES)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LINK_ARCHIVES)

$(BUILD)/bench/%: $(BUILD)/tests/bench/%.o $(ARCHIVES)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LINK_ARCHIVES) $(MALLOC_LIBS)

# The unit tests once more under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow" all

unit: all
	@tests/run --unit-only $(BUILD)

# Ends with the time it took (build and tests), beside the load average.
# The builds take every CPU unless make was given -j itself (README's
# `make test` is the newcomer's command); tests/run then runs the suites
# several at a time (TEST_JOBS).
TEST_BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))
test: deps
	@start=$$(date +%s); $(MAKE) --no-print-directory $(TEST_BUILD_JOBS) all asan && \
		tests/run $(BUILD) build-asan; rc=$$?; took=$$(( $$(date +%s) - start )); \
		echo "make test took $$((took / 60)) min $$((took % 60)) s (load average" \
			"$$(cut -d' ' -f1 /proc/loadavg))"; exit $$rc

bench:
	$(MAKE) BUILD=build-bench OPT="-O3 -march=native -DNDEBUG -g" all $(patsubst $(BUILD)/%,build-bench/%,$(BENCH_BINS))
	@tests/bench/run build-bench

deps:
	@tests/deps

run: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p var
	$(LAIRD)

clean:
	rm -rf build build-asan build-bench

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- the load generator (tests/bench/loadgen/main.c; tests/bench/run) ----
# Built with everything (its smoke test is part of make test); its unit test
# links its modules.
LOADGEN_SRC := $(wildcard tests/bench/loadgen/*.c)
LOADGEN := $(BUILD)/bench/loadgen
all: $(LOADGEN)
$(LOADGEN): $(call obj,$(LOADGEN_SRC)) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/tests/test_loadgen: $(call obj,$(filter-out tests/bench/loadgen/main.c,$(LOADGEN_SRC)))

# ---- fuzzing (tests/fuzz/fuzz.h, tests/fuzz/run, README "Fuzzing") ----
# The fuzz targets are plain functions: the regression unit test links them,
# and `make fuzz` links each with libFuzzer (clang, ASan+UBSan) and runs it
# for FUZZ_SECONDS on its corpus, FUZZ_JOBS targets at a time; crashes land
# in build-fuzz/artifacts/. `make fuzz-bench` prints each one's runs/s.
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_TARGETS := proto game table client json config http
FUZZ_SAN ?= -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-fsanitize-coverage-ignorelist=tests/fuzz/no_coverage.txt
$(BUILD)/tests/test_fuzz_regress: $(call obj,$(FUZZ_SRC))
# The harness is not coverage-instrumented (sanitizers stay): its compares
# of whole views would cost more than the code under test and feed the
# fuzzer features of its own. A no-op outside the fuzz build.
comma := ,
$(BUILD)/tests/fuzz/%.o: ALL_CFLAGS := $(filter-out -fsanitize-coverage-%,\
	$(subst fuzzer-no-link$(comma),,$(ALL_CFLAGS)))

.PHONY: fuzz fuzz-build fuzz-bench
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="-O2 -g" SAN="$(FUZZ_SAN)" \
		CFLAGS="-DLAIR_LIBFUZZER" $(patsubst %,build-fuzz/fuzz/fuzz_%,$(FUZZ_TARGETS))

$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/fuzz_util.o $(ARCHIVES)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  LD    $@"
	$(Q)$(CC) $(subst fuzzer-no-link,fuzzer,$(SAN)) -o $@ $(filter %.o,$^) $(LINK_ARCHIVES)

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_JOBS=$(FUZZ_JOBS) tests/fuzz/run build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-bench: deps
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/bench build-fuzz 20 $(FUZZ_TARGETS)

# ---- soak (tests/soak/soak.js): SOAK_SECONDS (180), SOAK_BOTS (300) ----
.PHONY: soak
soak:
	@$(MAKE) --no-print-directory all
	@tests/soak/run $(BUILD)

# ---- install (Debian conventions; deploy/README.md) ----
# make install [PREFIX=/usr/local] [DESTDIR=staging root] [SYSCONFDIR=/etc]:
# laird in SBINDIR (a daemon, laird(8)), lair in BINDIR, both manual pages,
# the systemd unit, the docs and examples in DOCDIR, and the settings file
# SYSCONFDIR/lair/laird.json from the example only when there is none (an
# operator's settings are never overwritten). The unit, the pages and laird's
# compiled-in settings path follow PREFIX and SYSCONFDIR. `make uninstall`
# removes exactly what install wrote, except the settings and the database.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/lair
UNITDIR    ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
INSTALL    ?= install
DOC_FILES  := README.md client-cli/README.md deploy/README.md deploy/nginx-lair.conf \
	deploy/laird.example.json proto/PROTOCOL.md proto/table.md proto/schema.json \
	$(wildcard proto/kinds/*.md proto/examples/*.js docs/*.md docs/*/*.md)
# The installed paths in place of the defaults the files are written with.
PATHS_SED  := -e 's|/usr/local/sbin|$(SBINDIR)|g' -e 's|/usr/local/share/doc/lair|$(DOCDIR)|g' \
	-e 's|/usr/local/lib/systemd/system|$(UNITDIR)|g' -e 's|/etc/lair|$(SYSCONFDIR)/lair|g'

# laird's default settings path follows SYSCONFDIR (server/config.h); the
# objects that use it are rebuilt when it changes.
$(BUILD)/gen/sysconfdir: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SYSCONFDIR)' | cmp -s - $@ || echo '$(SYSCONFDIR)' >$@
$(BUILD)/server/admin_token.o $(BUILD)/server/config.o $(BUILD)/server/main.o: $(BUILD)/gen/sysconfdir
$(BUILD)/server/admin_token.o $(BUILD)/server/config.o $(BUILD)/server/main.o: \
	ALL_CFLAGS += -DLAIRD_CONFIG_PATH='"$(SYSCONFDIR)/lair/laird.json"'

.PHONY: install uninstall FORCE
FORCE:

install: $(LAIRD) $(LAIR)
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/lair
	$(INSTALL) -m 755 $(LAIRD) $(DESTDIR)$(SBINDIR)/laird
	$(INSTALL) -m 755 $(LAIR) $(DESTDIR)$(BINDIR)/lair
	sed $(PATHS_SED) docs/man/laird.8 >$(DESTDIR)$(MANDIR)/man8/laird.8
	sed $(PATHS_SED) docs/man/lair.1 >$(DESTDIR)$(MANDIR)/man1/lair.1
	sed $(PATHS_SED) deploy/laird.service >$(DESTDIR)$(UNITDIR)/laird.service
	chmod 644 $(DESTDIR)$(MANDIR)/man8/laird.8 $(DESTDIR)$(MANDIR)/man1/lair.1 \
		$(DESTDIR)$(UNITDIR)/laird.service
	for f in $(DOC_FILES); do $(INSTALL) -D -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done
	[ -e $(DESTDIR)$(SYSCONFDIR)/lair/laird.json ] || \
		$(INSTALL) -m 644 deploy/laird.example.json $(DESTDIR)$(SYSCONFDIR)/lair/laird.json

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/laird $(DESTDIR)$(BINDIR)/lair \
		$(DESTDIR)$(MANDIR)/man8/laird.8 $(DESTDIR)$(MANDIR)/man1/lair.1 \
		$(DESTDIR)$(UNITDIR)/laird.service
	for f in $(DOC_FILES); do rm -f $(DESTDIR)$(DOCDIR)/$$f; done
	[ ! -d $(DESTDIR)$(DOCDIR) ] || find $(DESTDIR)$(DOCDIR) -depth -type d -empty -delete
	@echo "kept: $(DESTDIR)$(SYSCONFDIR)/lair/laird.json (settings) and the database"
