package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	bin := flag.String("bin", "", "the static linux kubeplan binary")
	certs := flag.String("certs", "/etc/ssl/certs/ca-certificates.crt", "the CA certificate bundle to include")
	out := flag.String("out", "dist/image", "directory to write the OCI layout (oci/) and the tarball (kubeplan.tar) into")
	version := flag.String("version", "dev", "the image's version (tag and label)")
	arch := flag.String("arch", "amd64", "the binary's architecture")
	flag.Parse()
	if err := run(*bin, *certs, *out, *version, *arch); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(bin, certs, out, version, arch string) error {
	if bin == "" {
		return fmt.Errorf("-bin is required")
	}
	img, err := Build(Options{Binary: bin, Certs: certs, Version: version, Arch: arch})
	if err != nil {
		return err
	}
	oci := filepath.Join(out, "oci")
	if err := os.RemoveAll(oci); err != nil {
		return err
	}
	p, err := layout.Write(oci, empty.Index)
	if err != nil {
		return fmt.Errorf("writing the OCI layout: %w", err)
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": version})); err != nil {
		return fmt.Errorf("writing the OCI layout: %w", err)
	}
	tag, err := name.NewTag("ghcr.io/kubeplan/kubeplan:" + version)
	if err != nil {
		return err
	}
	tar := filepath.Join(out, "kubeplan.tar")
	if err := tarball.WriteToFile(tar, tag, img); err != nil {
		return fmt.Errorf("writing %s: %w", tar, err)
	}
	d, _ := img.Digest()
	fmt.Printf("%s\n%s\n%s %s\n", oci, tar, tag, d)
	return nil
}
