# The two README commands:
#   make run    set up (Debian packages), build Release, run every command's quickstart
#   make test   set up, build, run the whole test suite through ctest
BUILD ?= build
JOBS ?= $(shell nproc)
# CI treats warnings as errors.
WERROR ?= $(if $(CI),ON,OFF)
CMAKE_FLAGS ?=
# OpenMP threads that spin while OpenBLAS runs steal the few cores a laptop has (Cora epochs 10x
# slower with 2 threads); libgomp reads this when it loads, so it is set for the processes we start.
export OMP_WAIT_POLICY ?= passive

.PHONY: all setup configure build run test bench docs clean fuzz

all: build

setup:
	@bash scripts/setup

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DMLSYS_WERROR=$(WERROR) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@bash scripts/quickstart $(BUILD)/bin/mlsys

# The tests that need real data run when ../shared/data exists (as in CI), unless MLSYS_DATA_DIR
# already names a folder; without it they are reported as skipped. ctest ends with one line counting
# the skipped tests by reason (tests/common/skip_summary.py).
SHARED_DATA := $(wildcard $(abspath $(CURDIR)/../shared/data))
test: build
	@cd $(BUILD) && $(if $(MLSYS_DATA_DIR),,$(if $(SHARED_DATA),MLSYS_DATA_DIR=$(SHARED_DATA))) \
	  ctest --output-on-failure -j $(JOBS) --timeout 1200

bench:
	@bash scripts/setup --bench
	@$(MAKE) --no-print-directory build
	@bash bench/run_all.sh $(BUILD)

docs: build
	@$(BUILD)/bin/mlsys config docs > docs/CONFIG.md
	@echo "wrote docs/CONFIG.md"

# One libFuzzer target per parser (tests/fuzz/fuzz_*.cpp), each run FUZZ_SECONDS (default 120).
fuzz: build
	@bash scripts/setup --fuzz
	@cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
	  -DMLSYS_FUZZ=ON -DMLSYS_WITH_CUDA=OFF -DMLSYS_BUILD_TESTS=OFF -DMLSYS_BUILD_BENCH=OFF \
	  -DMLSYS_FUZZ_BUILD_DIR=$(abspath $(BUILD)) >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_all
	@bash tests/fuzz/run_all.sh build-fuzz $${FUZZ_SECONDS:-120}

clean:
	rm -rf $(BUILD)
