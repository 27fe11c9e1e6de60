# Stint's two commands are `make demo` and `make test`; both install what is missing first.
SWIFT ?= swift
STINT_DEBUG := .build/debug/stint
# Release builds are static executables (the Swift runtime, Foundation, libzstd, libsqlite3 and libcrypto
# linked in): a process starts in a third of the time of a dynamically linked one (docs/performance.md, "The
# process floor"), and the binary needs no Swift toolchain and no shared library to run.
RELEASE := -c release -Xswiftc -static-executable
PREFIX ?= $(HOME)/.local

.PHONY: demo test test-browser bootstrap build install lint format schemas sample clean reliability fuzz fuzz-smoke bench \
	dist dist-check sim sim-smoke

## bootstrap: installs what is missing, then records the commit `stint --version` prints
## (Tools/write-build-commit.sh: a git-ignored StintVersion+Commit.swift; without it, no commit is printed).
bootstrap:
	@Tools/bootstrap.sh
	@Tools/write-build-commit.sh

build: bootstrap
	$(SWIFT) build

## demo: replays the sample log shipped in Events/sample/log.
demo: bootstrap
	@$(SWIFT) build $(RELEASE) --product stint 2>&1 | tail -n 1
	@Tools/demo.sh .build/release/stint

## install: the release binary into $(PREFIX)/bin (default ~/.local/bin).
install: bootstrap
	@$(SWIFT) build $(RELEASE) --product stint 2>&1 | tail -n 1
	install -d $(PREFIX)/bin
	install -m 0755 .build/release/stint $(PREFIX)/bin/stint
	@echo "installed $(PREFIX)/bin/stint (a static executable: it needs no shared library)"

## dist: dist/stint-VERSION-linux-ARCH.tar.gz and its .sha256: the release binary (a static executable), its
## manual page and completion scripts (generated from the verb specs) and RUNTIME-LIBRARIES, which says what
## it needs at run time (nothing but a Linux kernel for a static executable).
dist: bootstrap
	@$(SWIFT) build $(RELEASE) --product stint 2>&1 | tail -n 1
	Tools/dist/make-dist.sh .build/release/stint

## dist-check: the test of dist (a release build takes minutes, so it is not part of `make test`; .ci/run runs
## it): unpacks the tarball into an empty directory and runs `stint check` on the golden cases there with an
## empty environment and nothing on PATH.
dist-check: bootstrap
	@$(SWIFT) build $(RELEASE) --product stint 2>&1 | tail -n 1
	Tools/dist/check-dist.sh "$$(Tools/dist/make-dist.sh .build/release/stint | tail -n 1)"

## test: unit, golden and CLI tests; the golden projection cases through `stint check`; the format lint;
## the event schemas over the sample and golden logs.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2
	$(STINT_DEBUG) check Events/golden
	$(MAKE) --no-print-directory lint schemas

## test-browser: the page `stint view` writes, opened from file:// in headless Chromium (Tools/browser/view-test.py:
## no console error, no request, every point reached, the keys, five points' SVGs and fingerprints, two
## screenshots in .build/browser-test); skipped with a message when chromium, chromium-driver or selenium is missing.
test-browser: bootstrap
	$(SWIFT) build --product stint
	python3 Tools/browser/view-test.py $(STINT_DEBUG) .build/browser-test

## reliability: every full reliability run of docs/reliability.md (about 1.5 hours on 2 cores).
reliability: bootstrap
	Tools/reliability/run-all.sh

## fuzz: each libFuzzer target for FUZZ_SECONDS (default 300) seconds, then the whole-CLI fuzzer on the
##       release build for FUZZ_CLI_SECONDS (default 1800).
fuzz: bootstrap
	Tools/fuzz/run.sh --seconds $(or $(FUZZ_SECONDS),300)
	$(MAKE) --no-print-directory fuzz-cli

.PHONY: fuzz-cli
## fuzz-cli: the whole-CLI fuzzer alone (its regression vectors, then FUZZ_CLI_SECONDS of new ones).
fuzz-cli: bootstrap
	Tools/fuzz/cli.sh --seconds $(or $(FUZZ_CLI_SECONDS),1800)

## fuzz-smoke: each libFuzzer target for 5 seconds, for CI (about 3 minutes with the instrumented build), and
##             the whole-CLI fuzzer on the debug build for 60 seconds after replaying its regression vectors.
fuzz-smoke: bootstrap
	Tools/fuzz/run.sh --seconds 5
	Tools/fuzz/cli.sh --debug --seconds 60

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Tools Package.swift
	Tools/check-layers.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Tools Package.swift

## schemas: every line of the sample and golden logs against Events/schema (check-jsonschema), and the
## envelope's invalid lines (Events/invalid/envelope/invalidLine) refused by it.
schemas:
	Tools/check-schemas.sh Events/sample/log $(wildcard Events/golden/*/events.jsonl)
	Tools/check-schemas.sh --refused $(wildcard Events/invalid/envelope/invalidLine/*.jsonl)

## sample: rebuilds Events/sample/log from Tools/sample/commands.txt.
sample: build
	Tools/sample/build-sample.sh $(STINT_DEBUG)

## bench: Stint against Timewarrior and Watson on generated histories (docs/performance.md).
##        SIZES="1000 10000" RUNS=3 make bench for a quicker run.
bench: bootstrap
	@command -v hyperfine >/dev/null && command -v timew >/dev/null && command -v rsync >/dev/null || \
		(apt-get update -qq && apt-get install -y -qq timewarrior hyperfine rsync)
	@command -v watson >/dev/null || pip install -q td-watson
	$(SWIFT) build $(RELEASE) --product stint
	$(SWIFT) build $(RELEASE) --product stint-generate
	$(SWIFT) build $(RELEASE) --product stint-bench
	python3 Tools/bench/bench.py

## sim: the multi-device simulator (Tools/stint-sim, decision 0007 §9) on SIM_SEEDS seeds (default 1..100000) with
##      SIM_DEVICES devices (default 3) and SIM_STEPS steps (default 40); a failing seed prints the command that
##      repeats it and is kept as Events/sim/<seed>.json. SIM_CONFLICTS=off keeps devices off each other's records;
##      SIM_KILLS=off leaves kill -9 mid-batch out.
SIM_SEEDS ?= 1..100000
SIM_DEVICES ?= 3
SIM_STEPS ?= 40
SIM_CONFLICTS ?= on
SIM_KILLS ?= on
SIM := .build/release/stint-sim
sim: bootstrap
	@$(SWIFT) build -c release --product stint-sim 2>&1 | tail -n 1
	$(SIM) --seeds $(SIM_SEEDS) --devices $(SIM_DEVICES) --steps $(SIM_STEPS) --conflicts $(SIM_CONFLICTS) \
		--kills $(SIM_KILLS) --keep-failures Events/sim

## sim-smoke: for CI: 500 seeds, each control on its seeds, where it
##            must fail its check (wallclock: causality; whole-record: fields;
##            no-tombstones: deletions, with conflicts on (a deletion against an edit);
##            lagging-replica: frontier, outputs, exactly once and delivery orders; current-backup: forks), then
##            the kept seeds of Events/sim replayed. SIM_KILLS=off leaves kill -9 out.
sim-smoke: bootstrap
	@$(SWIFT) build -c release --product stint-sim 2>&1 | tail -n 1
	@# The 500 seeds as two processes, one per core.
	$(SIM) --seeds 1..250 --devices 3 --steps 10 --conflicts $(SIM_CONFLICTS) --kills $(SIM_KILLS) & first=$$!; \
		$(SIM) --seeds 251..500 --devices 3 --steps 10 --conflicts $(SIM_CONFLICTS) --kills $(SIM_KILLS); \
		second=$$?; wait $$first && exit $$second
	$(SIM) --seeds 1..10 --devices 3 --steps 25 --conflicts $(SIM_CONFLICTS) --control wallclock
	$(SIM) --seeds 1..40 --devices 3 --steps 40 --conflicts on --control whole-record
	$(SIM) --seeds 1..60 --devices 3 --steps 40 --conflicts on --control no-tombstones
	$(SIM) --seeds 1..3 --devices 3 --steps 25 --conflicts $(SIM_CONFLICTS) --control lagging-replica
	$(SIM) --seeds 1..3 --devices 3 --steps 25 --conflicts $(SIM_CONFLICTS) --control current-backup
	$(SIM) --replay Events/sim

clean:
	rm -rf .build dist
