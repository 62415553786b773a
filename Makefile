# kubeplan: `make demo` shows the whole story on a local cluster, `make build` builds bin/kubeplan,
# `make test` runs every test (building bin/testcluster).
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
BUILDINFO := github.com/kubeplan/kubeplan/internal/buildinfo
LDFLAGS := -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$(COMMIT) -X $(BUILDINFO).date=$(DATE)

.PHONY: build demo test sops-peer helm-peer test-security vet image release-check release-snapshot bench bench-lint bench-lint-policies bench-lint-pod-security bench-lint-crds bench-lint-crds-real bench-plan bench-plan-waves bench-plan-guards bench-apply bench-apply-wait bench-projects bench-helm bench-serve bench-serve-push bench-start bench-size generate fuzz clean testcluster screenshot

# CGO_ENABLED=0 as the releases (.goreleaser.yaml) and the image: with cgo, kustomize's plugin loader links
# Go's plugin package and the binary is 114 MiB instead of 85 (make bench-size).
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o bin/kubeplan ./cmd/kubeplan

# The acceptance story (lint, plan, apply, drift, prune, revert, a broken commit, status, kustomize)
# from the built binaries on a cluster of its own, which it removes with its work directory at the
# end, also when interrupted (tools/demo; TestDemoStory runs this very target).
demo: build testcluster
	$(GO) run ./tools/demo

vet:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt -w these files:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The integration tests run against bin/testcluster, so `make test` builds it first.
test: vet testcluster release-check sops-peer helm-peer
	$(GO) test -timeout 30m ./...
	cd testcluster && $(GO) vet ./... && $(GO) test ./...
	cd tools/image && $(GO) vet ./... && $(GO) test ./...

# The sops CLI v3.13.3, the peer of the SOPS differential suite (test/sopsdiff), built from the Go
# module proxy into .bench/sops/bin the first time (about 4 CPU-minutes, plus its downloads).
sops-peer:
	$(GO) run ./test/sopsdiff

# The helm CLI v4.3.1, the peer of the Helm differential suite (test/helmdiff) and of bench-helm, built
# from the Go module proxy into .bench/helm/bin the first time (about 6 CPU-minutes).
helm-peer:
	@test "$$($(GO) version -m .bench/helm/bin/helm 2>/dev/null | awk '$$1=="mod" && $$2=="helm.sh/helm/v4" {print $$3}')" = v4.3.1 || \
	  GOBIN=$(CURDIR)/.bench/helm/bin $(GO) install helm.sh/helm/v4/cmd/helm@v4.3.1

# The hostile-repository suite alone (docs/security.md); make test runs it too.
test-security: testcluster
	$(GO) test ./internal/confine ./internal/ghactions ./internal/ghcomment ./internal/kube ./internal/ownwords ./internal/sops ./internal/testing/githubtest
	$(GO) test ./internal/config -run 'Confined|Kubeconfig|Cluster'
	$(GO) test ./manifest/... -run 'Bomb|HelmRender|HelmBounded|NetGuard|Remote|SCP|SchemaRef|ArgumentLinked|PluginConfig|SOPS'
	$(GO) test ./render ./render/ghview -run 'Hostile|Masker|Scrub'
	$(GO) test ./lint/admission -run 'CheckContext|Confined'
	$(GO) test ./lint -run 'Deadline|Decrypted'
	$(GO) test ./plan ./run -run 'Decrypted'
	$(GO) test ./cmd/kubeplan -run 'TestScripts/hostile_|Hostile|NoNetwork|Interrupt|BombCorpus|ServeConnectorClusters'

# The container image, without Docker (tools/image, a module of its own): the static linux binary,
# CA certificates, user 65532, ENTRYPOINT ["kubeplan"], as an OCI layout (dist/image/oci) and a
# tarball for `docker load` (dist/image/kubeplan.tar).
IMAGE_ARCH ?= $(shell $(GO) env GOARCH)
image:
	mkdir -p dist/image
	CGO_ENABLED=0 GOOS=linux GOARCH=$(IMAGE_ARCH) $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS)" -o dist/image/kubeplan ./cmd/kubeplan
	cd tools/image && $(GO) run . -bin ../../dist/image/kubeplan -out ../../dist/image -version $(VERSION) -arch $(IMAGE_ARCH)

# Release builds with goreleaser, pinned as a Go tool in tools.mod: its dependency tree stays out of
# go.mod and go.sum (and out of `go mod download`). release-check validates .goreleaser.yaml;
# release-snapshot builds every archive and checksums.txt into dist/, unpublished.
GORELEASER := $(GO) tool -modfile=tools.mod goreleaser
release-check:
	$(GORELEASER) check

release-snapshot:
	$(GORELEASER) release --snapshot --clean

# Benchmarks compare kubeplan with its peers side by side; see docs/benchmarks.md.
bench: bench-lint bench-lint-policies bench-lint-pod-security bench-lint-crds bench-plan bench-plan-waves bench-plan-guards bench-apply bench-apply-wait bench-projects bench-helm bench-size

bench-lint:
	$(GO) run ./tools/benchlint

# kubeplan lint of the bench-lint corpus (20,000 objects) without and with 50 ValidatingAdmissionPolicies
# (--policies), alternating in one run: the wall time and peak RSS the policies add.
bench-lint-policies:
	$(GO) run ./tools/benchlintpolicies

# kubeplan lint of one small file (a pre-commit hook's run) vs kubeconform -strict on it, alternating, beside
# the floors of both binaries and where kubeplan's memory is at start (issue 33: 1.5x wall, 40 MiB).
bench-start:
	$(GO) run ./tools/benchstart

# What each major dependency (helm, apiserver CEL, kustomize, go-git, client-go, prometheus, ...) adds to
# bin/kubeplan: its symbols' share, blank-import builds without it and with only it, and their start RSS.
bench-size:
	$(GO) run ./tools/binsize

# kubeplan lint of the bench-lint corpus (20,000 objects) with the pod-security rule off and with levels set
# (enforce baseline, warn and audit restricted), alternating in one run: what the rule costs (budget 15%).
bench-lint-pod-security:
	$(GO) run ./tools/benchlintpsa

# kubeplan lint (CEL on and off) vs kubeconform -strict on a generated CRD-heavy corpus of the kubeflow
# shape (100 CRDs with large schemas and CEL rules, 25 of them used, 2,274 objects), kubeconform reading the schemas its own
# scripts/openapi2jsonschema.py makes from the same CRDs (python3 with pyyaml).
bench-lint-crds:
	$(GO) run ./tools/benchlintcrds

# The same on the real thing: kubeflow/manifests' example/ rendered offline by tools/benchlintcrds/kubeflow.sh
# from git mirrors of kubeflow/manifests, argo-workflows, lws and jobset (MIRROR, default /work/.mirror; see the script).
bench-lint-crds-real:
	tools/benchlintcrds/kubeflow.sh .bench/kubeflow $(MIRROR)
	$(GO) run ./tools/benchlintcrds -real .bench/kubeflow

# kubeplan lint CHART vs helm template CHART | kubeconform -strict -summary on testdata/charts/bench (50
# templates, 2 subcharts) and on the vendored kube-prometheus-stack (subcharts, 10 CRDs given to kubeconform
# as strict schemas), 10 runs alternating each; builds helm v4.3.1 into .bench/helm/bin the first time.
bench-helm:
	$(GO) run ./tools/benchhelm

# kubeplan plan vs kubectl diff --server-side on a testcluster holding 1,200 (and 10,000) objects.
bench-plan: testcluster
	$(GO) run ./tools/benchplan

# kubeplan plan of the 1,200-object corpus in 5 Argo CD sync waves vs without waves, and first applies in
# 2 to 5 waves timed from the testcluster's audit log: how long after a wave is healthy the next one starts.
bench-plan-waves: testcluster
	$(GO) run ./tools/benchplan -mode waves

# kubeplan plan of the 1,200-object corpus, every object changed, judged by the built-in guard rules and five
# of a team's vs the same plan with every rule off (issue 30: at most 1.05x).
bench-plan-guards: testcluster
	$(GO) run ./tools/benchplan -mode guards -runs 7

# kubeplan apply vs kubectl apply --server-side --force-conflicts --prune --applyset (first apply, no-op,
# prune of 100) on the 1,200-object corpus, each tool in fresh namespaces of one testcluster.
bench-apply: testcluster
	$(GO) run ./tools/benchplan -mode apply

# A healthy kubeplan apply --wait of the bench-apply corpus, with fail fast (the default) and with
# --fail-fast=false, vs kubeplan built from the commit before fail fast and the diagnosis (-baseline).
bench-apply-wait: testcluster
	$(GO) run ./tools/benchplan -mode wait

# kubeplan plan --all over a generated repository of 50 projects (25 bases x dev, prod; 2,000 objects)
# vs the same objects planned as one set, vs --changed-since after a change to one overlay, and vs
# kubectl diff --server-side -k once per overlay (tools/benchprojects; -quick for 8 projects).
bench-projects: testcluster
	$(GO) run ./tools/benchprojects

# One kubeplan serve process reconciling 100 projects x 50 ConfigMaps every 30 s on a testcluster: per
# no-op round its wall time, its CPU and RSS, the testcluster's CPU and the writes, against a client-go
# loop making the same reads (tools/benchserve).
bench-serve: testcluster
	$(GO) run ./tools/benchserve -doc docs/benchmarks.md

# serve --interval 1h over the same 100 projects x 50 objects: 20 one-project changes, each announced with a
# signed GitHub push webhook; p50/p90 of push to in sync, less the run's own time (target: 5 s).
bench-serve-push: testcluster
	$(GO) run ./tools/benchserve -push -doc docs/benchmarks.md

# Regenerate the embedded Kubernetes schemas and API index from the modules.
generate:
	$(GO) generate ./internal/kubeapi/

# docs/plan-comment.png, the pull-request comment shown in the README: a real plan on bin/testcluster,
# rendered as GitHub-flavoured markdown and photographed by headless Chromium (apt-get install chromium;
# only this target needs it).
screenshot: build testcluster
	$(GO) run ./tools/commentshot -kubeplan bin/kubeplan -out docs/plan-comment.png

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./manifest/

clean:
	rm -rf bin .bench

# testcluster: a real kube-apiserver + etcd + controllers for tests and the demo (separate Go module;
# see testcluster/main.go). The ldflags make discovery report the Kubernetes release it is built from.
K8S_VERSION := $(shell awk '$$1 == "k8s.io/kubernetes" { print $$2 }' testcluster/go.mod)
K8S_MINOR   := $(word 2,$(subst ., ,$(K8S_VERSION)))
K8S_LDFLAGS := $(foreach p,k8s.io/component-base/version k8s.io/client-go/pkg/version,\
	-X $(p).gitVersion=$(K8S_VERSION) -X $(p).gitMajor=1 -X $(p).gitMinor=$(K8S_MINOR) \
	-X $(p).gitTreeState=clean -X $(p).gitCommit=)

testcluster:
	cd testcluster && $(GO) build -ldflags "-s -w $(K8S_LDFLAGS)" -o ../bin/testcluster .
