# kubeplan: `make build` builds bin/kubeplan, `make test` runs every test.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build test vet bench bench-lint generate fuzz clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/kubeplan ./cmd/kubeplan

vet:
	$(GO) vet ./...

test: vet
	$(GO) test ./...

# Benchmarks compare kubeplan with its peers side by side; see docs/benchmarks.md.
bench: bench-lint

bench-lint:
	$(GO) run ./internal/benchlint

# Regenerate the embedded Kubernetes schemas and API index from the modules.
generate:
	$(GO) generate ./lint/schemas/

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./manifest/

clean:
	rm -rf bin .bench
