# Install kubeplan from a release: download this machine's archive and the
# release's checksums.txt, check the archive's SHA-256, install the binary.
set -euo pipefail
version=v1.4.0
os=$(uname -s | tr '[:upper:]' '[:lower:]')               # linux or darwin (windows: the .zip)
arch=$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/') # amd64 or arm64
base=${KUBEPLAN_RELEASE_URL:-https://github.com/kubeplan/kubeplan/releases/download}/$version
archive=kubeplan_${version#v}_${os}_${arch}.tar.gz
curl -fsSLO "$base/$archive"
curl -fsSLO "$base/checksums.txt"
grep "  $archive\$" checksums.txt >"$archive.sha256" # this archive's line of checksums.txt
if command -v sha256sum >/dev/null; then sha256sum -c "$archive.sha256"; else shasum -a 256 -c "$archive.sha256"; fi
tar -xzf "$archive" kubeplan
mkdir -p ~/.local/bin
install -m 0755 kubeplan ~/.local/bin/kubeplan
~/.local/bin/kubeplan version
