package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Nonroot is the user and group the image runs as (distroless's nonroot).
const Nonroot = 65532

// Options say what goes into the image.
type Options struct {
	Binary  string // the static linux kubeplan binary
	Certs   string // the CA certificate bundle
	Version string
	Arch    string // amd64 or arm64
}

// epoch stamps every file and the config: the same inputs give the same
// image digest.
var epoch = time.Unix(0, 0).UTC()

// Build makes the image: a base layer (CA certificates, passwd and group
// with the nonroot user, its home, /tmp) and a layer with the binary.
func Build(o Options) (v1.Image, error) {
	binData, err := os.ReadFile(o.Binary)
	if err != nil {
		return nil, err
	}
	certData, err := os.ReadFile(o.Certs)
	if err != nil {
		return nil, fmt.Errorf("CA certificates: %w", err)
	}
	base, err := tarLayer([]file{
		{name: "etc/", dir: true, mode: 0o755},
		{name: "etc/ssl/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/", dir: true, mode: 0o755},
		{name: "etc/ssl/certs/ca-certificates.crt", data: certData, mode: 0o644},
		{name: "etc/passwd", data: []byte("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"), mode: 0o644},
		{name: "etc/group", data: []byte("root:x:0:\nnonroot:x:65532:\n"), mode: 0o644},
		{name: "home/", dir: true, mode: 0o755},
		{name: "home/nonroot/", dir: true, mode: 0o700, uid: Nonroot},
		{name: "tmp/", dir: true, mode: 0o1777},
	})
	if err != nil {
		return nil, err
	}
	app, err := tarLayer([]file{
		{name: "usr/", dir: true, mode: 0o755},
		{name: "usr/local/", dir: true, mode: 0o755},
		{name: "usr/local/bin/", dir: true, mode: 0o755},
		{name: "usr/local/bin/kubeplan", data: binData, mode: 0o755},
	})
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), base, app)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = o.Arch, "linux"
	cf.Created = v1.Time{Time: epoch}
	cf.Config.User = fmt.Sprintf("%d:%d", Nonroot, Nonroot)
	cf.Config.Entrypoint = []string{"kubeplan"}
	cf.Config.WorkingDir = "/home/nonroot"
	cf.Config.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/nonroot", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"}
	cf.Config.Labels = map[string]string{
		"org.opencontainers.image.title":   "kubeplan",
		"org.opencontainers.image.version": o.Version,
		"org.opencontainers.image.source":  "https://github.com/kubeplan/kubeplan",
	}
	return mutate.ConfigFile(img, cf)
}

type file struct {
	name     string
	data     []byte
	mode     int64
	dir      bool
	uid, gid int
}

// tarLayer is a gzipped OCI layer of files.
func tarLayer(files []file) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, ModTime: epoch, Uid: f.uid, Gid: f.uid, Format: tar.FormatPAX}
		if f.dir {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(f.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
}
