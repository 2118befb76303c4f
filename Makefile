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

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 1200

bench:
	@bash scripts/setup --bench
	@$(MAKE) --no-print-directory build
	@bash bench/run_all.sh $(BUILD)

docs: build
	@$(BUILD)/bin/mlsys config docs > docs/CONFIG.md
	@echo "wrote docs/CONFIG.md"

fuzz:
	@bash scripts/setup --fuzz
	@cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
	  -DMLSYS_FUZZ=ON -DMLSYS_WITH_CUDA=OFF -DMLSYS_BUILD_TESTS=OFF -DMLSYS_BUILD_BENCH=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_config
	@mkdir -p build-fuzz/corpus && cp tests/fuzz/corpus/*.yaml build-fuzz/corpus/ && (cp configs/*/*.yaml build-fuzz/corpus/ 2>/dev/null || true)
	@build-fuzz/tests/fuzz/fuzz_config build-fuzz/corpus -max_total_time=$${FUZZ_SECONDS:-180} -max_len=4096
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_graph_text
	@mkdir -p build-fuzz/corpus_graph_text && cp tests/fuzz/corpus_graph_text/* build-fuzz/corpus_graph_text/
	@build-fuzz/tests/fuzz/fuzz_graph_text build-fuzz/corpus_graph_text -max_total_time=$${FUZZ_SECONDS:-180} -max_len=8192

clean:
	rm -rf $(BUILD)
