package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

type withMeta struct {
	filesys.FileSystem
	meta string
}

func (f withMeta) ReadFile(p string) ([]byte, error) {
	d, err := f.FileSystem.ReadFile(p)
	if err == nil && filepath.Base(p) == "kustomization.yaml" && f.meta != "" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "overlays" {
		d = append(d, []byte("\nbuildMetadata: ["+f.meta+"]\n")...)
	}
	return d, err
}

func main() {
	dirs, _ := filepath.Glob(os.Args[1] + "/apps/*/overlays/*")
	for _, meta := range []string{"", "originAnnotations", "originAnnotations", ""} {
		t0 := time.Now()
		n := 0
		for _, d := range dirs {
			rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(withMeta{filesys.MakeFsOnDisk(), meta}, d)
			if err != nil {
				panic(err)
			}
			n += rm.Size()
		}
		fmt.Printf("meta=%q %d objs %v\n", meta, n, time.Since(t0))
	}
}
