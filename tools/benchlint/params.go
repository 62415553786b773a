package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// generatorVersion changes whenever the generated text changes, so that an
// old corpus is regenerated.
const generatorVersion = 2

// params are what a corpus is generated from.
type params struct {
	Resources int   `json:"resources"` // objects in all, the CRD included
	Files     int   `json:"files"`     // files in all, the CRD's own file included
	Seed      int64 `json:"seed"`
	Generator int   `json:"generator"`
}

func (p params) validate() error {
	if p.Files < 2 {
		return errors.New("-files must be at least 2 (one holds the CRD alone)")
	}
	if p.Resources < p.Files {
		return fmt.Errorf("-resources (%d) must be at least -files (%d)", p.Resources, p.Files)
	}
	return nil
}

// manifestPath is where the manifest of the corpus in dir is kept: beside
// it, not in it, since both tools would read a .json file in it. It is
// written last, once the corpus is complete.
func manifestPath(dir string) string { return filepath.Clean(dir) + ".json" }

// corpusManifest is the content of manifestFile.
type corpusManifest struct {
	Params  params           `json:"params"`
	Counts  map[string]int   `json:"counts"`  // objects by kind
	Sizes   map[string]int64 `json:"sizes"`   // bytes of YAML by kind
	Invalid []invalidObject  `json:"invalid"` // objects made invalid on purpose
	Bytes   int64            `json:"bytes"`   // size of the corpus files
}

// invalidObject is one object the generator made invalid.
type invalidObject struct {
	File      string `json:"file"` // relative to the corpus directory
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Defect    string `json:"defect"`
}

// readManifest returns the manifest of dir's corpus, or nil when there is
// none or it cannot be read.
func readManifest(dir string) *corpusManifest {
	b, err := os.ReadFile(manifestPath(dir))
	if err != nil {
		return nil
	}
	var m corpusManifest
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return &m
}

func writeManifest(dir string, m *corpusManifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(manifestPath(dir), append(b, '\n'), 0o644)
}
