#!/bin/sh
# kubeflow.sh renders kubeflow/manifests' example/kustomization.yaml (the
# whole-platform install) into one multi-document YAML file, offline, for
# `go run ./tools/benchlintcrds -real FILE` (make bench-lint-crds-real).
#
#   tools/benchlintcrds/kubeflow.sh OUTDIR [MIRROR]
#
# It needs git mirrors (bare repositories, as the session's fetch tool leaves
# them under MIRROR, default /work/.mirror) of kubeflow/manifests and of the
# three repositories its kustomizations load remotely:
#
#   MIRROR/kubeflow+manifests/repo          HEAD (or $KUBEFLOW_REF)
#   MIRROR/argoproj+argo-workflows/repo     tag v3.7.3 (manifests/...)
#   MIRROR/kubernetes-sigs+lws/repo         tag v0.8.0 (config/default)
#   MIRROR/kubernetes-sigs+jobset/repo      tag v0.11.0 (config/default, which
#                                           is what its release's manifests.yaml
#                                           is built from)
#
# The remote URLs in the kustomizations are rewritten to those local copies,
# then `kubectl kustomize` builds example/. The manifests commit is written to
# OUT.yaml.commit.
set -eu
out=${1:?usage: kubeflow.sh OUTDIR [MIRROR]}
mirror=${2:-/work/.mirror}
ref=${KUBEFLOW_REF:-HEAD}
case $out in /*) ;; *) out=$PWD/$out ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract() { # git-dir ref dest [path...]
	g=$1 r=$2 d=$3
	shift 3
	[ -d "$g" ] || { echo "kubeflow.sh: no mirror $g (fetch github:${g#"$mirror"/} first)" >&2; exit 2; }
	mkdir -p "$d"
	git --git-dir="$g" archive "$r" "$@" | tar -x -C "$d"
}
src=$work/manifests
extract "$mirror/kubeflow+manifests/repo" "$ref" "$src"
rem=$src/remote # inside the tree: kustomize takes no absolute roots
extract "$mirror/argoproj+argo-workflows/repo" v3.7.3 "$rem/argo" manifests
extract "$mirror/kubernetes-sigs+lws/repo" v0.8.0 "$rem/lws" config
extract "$mirror/kubernetes-sigs+jobset/repo" v0.11.0 "$rem/jobset" config
commit=$(git --git-dir="$mirror/kubeflow+manifests/repo" rev-parse "$ref")

# jobset's release manifests.yaml, built from its config/default.
jobset=$src/applications/trainer/upstream/third-party/jobset
kubectl kustomize "$rem/jobset/config/default" >"$jobset/jobset-v0.11.0.yaml"

# Remote resources -> local paths (directories may lie outside a
# kustomization's root; files may not, hence jobset's copy above).
grep -rlE 'https://github.com/(argoproj/argo-workflows|kubernetes-sigs/lws|kubernetes-sigs/jobset)' \
	--include=kustomization.yaml "$src" | while read -r k; do
	up=$(realpath --relative-to="$(dirname "$k")" "$rem")
	sed -i \
		-e "s#https://github.com/argoproj/argo-workflows/\\([^?]*\\)?ref=v3.7.3#$up/argo/\\1#" \
		-e "s#https://github.com/kubernetes-sigs/lws//\\([^?]*\\)?ref=v0.8.0#$up/lws/\\1#" \
		-e "s#https://github.com/kubernetes-sigs/jobset/releases/download/v0.11.0/manifests.yaml#jobset-v0.11.0.yaml#" \
		"$k"
done

# Each component example/ lists, built on its own (as a GitOps repository of
# rendered manifests holds them), split into one file per component and kind:
# NN-component-kind.yaml.
rm -rf "$out"
mkdir -p "$out"
n=0
sed -n '/^resources:/,$s/^- \([^ #]*\).*/\1/p' "$src/example/kustomization.yaml" | while read -r c; do
	n=$((n + 1))
	name=$(printf '%02d-%s' "$n" "$(echo "$c" | sed -e 's#^\.\./##' -e 's#/upstream##' -e 's#/overlays##' -e 's#/base$##' -e 's#/#-#g')")
	kubectl kustomize "$src/example/$c" 2>/dev/null | awk -v pre="$out/$name" '
		function flush() { if (doc != "" && kind != "") { f = pre "-" tolower(kind) ".yaml"; if (f in seen) printf "---\n" >> f; seen[f] = 1; printf "%s", doc >> f; close(f) } doc = ""; kind = "" }
		/^---$/ { flush(); next }
		/^kind: / { kind = $2 }
		{ doc = doc $0 "\n" }
		END { flush() }'
done
echo "$commit" >"$out/../$(basename "$out").commit"
echo "kubeflow.sh: kubeflow/manifests@$commit -> $out ($(find "$out" -name "*.yaml" | wc -l) files, $(cat "$out"/*.yaml | grep -c '^kind: ') objects)" >&2
