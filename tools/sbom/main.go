package main

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	out := flag.String("o", "", "the SPDX JSON document to write (default: standard output)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: sbom [-o FILE] BINARY")
		os.Exit(2)
	}
	doc, err := Document(flag.Arg(0), created())
	if err == nil {
		err = write(*out, doc)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sbom:", err)
		os.Exit(1)
	}
}

// created is SOURCE_DATE_EPOCH when set (reproducible builds), else now.
func created() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		var sec int64
		if _, err := fmt.Sscan(s, &sec); err == nil {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Now().UTC()
}

func write(path string, doc *SPDX) error {
	var w io.Writer = os.Stdout
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// SPDX is the part of an SPDX 2.3 document this writes.
type SPDX struct {
	SPDXVersion       string         `json:"spdxVersion"`
	DataLicense       string         `json:"dataLicense"`
	SPDXID            string         `json:"SPDXID"`
	Name              string         `json:"name"`
	DocumentNamespace string         `json:"documentNamespace"`
	CreationInfo      CreationInfo   `json:"creationInfo"`
	Packages          []Package      `json:"packages"`
	Relationships     []Relationship `json:"relationships"`
}

type CreationInfo struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

type Package struct {
	Name             string        `json:"name"`
	SPDXID           string        `json:"SPDXID"`
	VersionInfo      string        `json:"versionInfo"`
	DownloadLocation string        `json:"downloadLocation"`
	FilesAnalyzed    bool          `json:"filesAnalyzed"`
	Checksums        []Checksum    `json:"checksums,omitempty"`
	ExternalRefs     []ExternalRef `json:"externalRefs,omitempty"`
}

type Checksum struct {
	Algorithm string `json:"algorithm"`
	Value     string `json:"checksumValue"`
}

type ExternalRef struct {
	Category string `json:"referenceCategory"`
	Type     string `json:"referenceType"`
	Locator  string `json:"referenceLocator"`
}

type Relationship struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
}

// Document reads the module list embedded in binary.
func Document(binary string, at time.Time) (*SPDX, error) {
	bi, err := buildinfo.ReadFile(binary)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", binary, err)
	}
	data, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	name := filepath.Base(binary)
	doc := &SPDX{
		SPDXVersion: "SPDX-2.3", DataLicense: "CC0-1.0", SPDXID: "SPDXRef-DOCUMENT", Name: name,
		DocumentNamespace: "https://github.com/kubeplan/kubeplan/sbom/" + name + "-" + sum,
		CreationInfo:      CreationInfo{Created: at.Format(time.RFC3339), Creators: []string{"Tool: kubeplan-tools-sbom", "Tool: " + bi.GoVersion}},
	}
	mainID := "SPDXRef-Package-" + spdxID(bi.Main.Path)
	mainPkg := modulePackage(bi.Main.Path, bi.Main.Version, mainID)
	mainPkg.Checksums = []Checksum{{Algorithm: "SHA256", Value: sum}}
	doc.Packages = append(doc.Packages, mainPkg, Package{Name: "go", SPDXID: "SPDXRef-Package-go", VersionInfo: strings.TrimPrefix(bi.GoVersion, "go"),
		DownloadLocation: "https://go.dev/dl/", ExternalRefs: []ExternalRef{{"PACKAGE-MANAGER", "purl", "pkg:golang/stdlib@" + strings.TrimPrefix(bi.GoVersion, "go")}}})
	doc.Relationships = append(doc.Relationships, Relationship{"SPDXRef-DOCUMENT", "DESCRIBES", mainID}, Relationship{mainID, "DEPENDS_ON", "SPDXRef-Package-go"})
	for _, d := range bi.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		id := "SPDXRef-Package-" + spdxID(m.Path+"-"+m.Version)
		doc.Packages = append(doc.Packages, modulePackage(m.Path, m.Version, id))
		doc.Relationships = append(doc.Relationships, Relationship{mainID, "DEPENDS_ON", id})
	}
	return doc, nil
}

func modulePackage(path, version, id string) Package {
	if version == "" || version == "(devel)" {
		version = "devel"
	}
	return Package{Name: path, SPDXID: id, VersionInfo: version, DownloadLocation: "NOASSERTION",
		ExternalRefs: []ExternalRef{{"PACKAGE-MANAGER", "purl", "pkg:golang/" + path + "@" + version}}}
}

// spdxID keeps the characters an SPDX identifier may hold.
func spdxID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
