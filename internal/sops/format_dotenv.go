package sops

import (
	"bytes"
	"fmt"
	"strings"
)

// dotenvPrefix starts the keys the dotenv format keeps the metadata under
// ("sops_mac", "sops_age__list_0__map_enc").
const dotenvPrefix = "sops_"

// loadDotenv reads a SOPS dotenv file: KEY=VALUE lines ("\n" escaped),
// "#" comments, the metadata as sops_* keys.
func loadDotenv(data []byte) (*treeFile, error) {
	f := &treeFile{}
	var mkeys, mvalues []string
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if line[0] == '#' {
			f.root = append(f.root, item{comment: true, value: string(line[1:]), line: i + 1})
			continue
		}
		k, v, ok := strings.Cut(string(line), "=")
		if !ok {
			return nil, &Error{Line: i + 1, Col: 1, Err: fmt.Errorf("not a KEY=VALUE line of a dotenv file")}
		}
		v = strings.ReplaceAll(v, `\n`, "\n")
		if strings.HasPrefix(k, dotenvPrefix) {
			if f.metaLine == 0 {
				f.metaLine = i + 1
			}
			if k == dotenvPrefix+"mac" {
				f.macLine = i + 1
			}
			mkeys, mvalues = append(mkeys, strings.TrimPrefix(k, dotenvPrefix)), append(mvalues, v)
			continue
		}
		f.root = append(f.root, item{key: k, value: v, line: i + 1})
	}
	if f.meta = finishMetadata(metadataFromFlat(mkeys, mvalues)); f.meta == nil {
		return nil, errNotSOPS
	}
	return f, nil
}

// emitDotenv prints the decrypted file as sops -d does.
func emitDotenv(f *treeFile) []byte {
	var b bytes.Buffer
	for _, it := range f.root {
		if it.comment {
			fmt.Fprintf(&b, "#%s\n", it.value)
			continue
		}
		fmt.Fprintf(&b, "%s=%s\n", it.key, strings.ReplaceAll(valToString(it.value), "\n", `\n`))
	}
	return b.Bytes()
}
