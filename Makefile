# Stint's two commands are `make demo` and `make test`; both install what is missing first.
SWIFT ?= swift
STINT_DEBUG := .build/debug/stint

.PHONY: demo test bootstrap build lint format schemas golden docs-check bench clean

bootstrap:
	@Tools/bootstrap.sh

build: bootstrap
	$(SWIFT) build

## demo: replays the sample log shipped under Events/sample.
demo: bootstrap
	@$(SWIFT) build -c release --product stint 2>&1 | tail -n 1
	@Tools/demo.sh .build/release/stint

## test: the unit and golden tests, the format lint, and the event schemas.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2
	$(MAKE) --no-print-directory lint

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Tools Package.swift

format:
	$(SWIFT) format --in-place --recursive Sources Tests Tools Package.swift

clean:
	rm -rf .build
