package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bad/*")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		st := time.Now()
		objs, probs := Parse(f, data)
		fmt.Printf("== %s (%v)\n", filepath.Base(f), time.Since(st))
		for _, o := range objs {
			fmt.Printf("  obj %s doc=%d start=%v name@%v\n", o, o.Doc, o.Start(), o.Pos("metadata", "name"))
		}
		for _, p := range probs {
			fmt.Printf("  prob %s %v %s\n", p.Rule, p.Pos, p.Message)
		}
	}
}
