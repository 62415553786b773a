package benchkit

import (
	"flag"
	"reflect"
	"testing"
)

func TestStartRefusesNoRuns(t *testing.T) {
	fs := flag.NewFlagSet("b", flag.ContinueOnError)
	runs := fs.Int("runs", 5, "")
	if _, err := Start(fs, []string{"-runs", "0"}, runs); err == nil || err.Error() != "-runs must be at least 1" {
		t.Fatalf("Start with -runs 0: err = %v", err)
	}
	fs = flag.NewFlagSet("b", flag.ContinueOnError)
	runs = fs.Int("runs", 5, "")
	root, err := Start(fs, []string{"-runs", "2"}, runs)
	if err != nil || *runs != 2 || !FileExists(root+"/go.mod") {
		t.Fatalf("Start with -runs 2: root %q, runs %d, err %v", root, *runs, err)
	}
}

func TestUnder(t *testing.T) {
	if got := Under("/m", ".bench/lint"); got != "/m/.bench/lint" {
		t.Errorf("relative: %q", got)
	}
	if got := Under("/m", "/tmp/x"); got != "/tmp/x" {
		t.Errorf("absolute: %q", got)
	}
}

func TestShown(t *testing.T) {
	in := Tool{Name: "kc", Bin: "/m/bin/kubeconform", Dir: "/m/.bench/lint",
		Args: []string{"-schema-location", "/cache/schemas/{{.x}}", "/m/corpus"}}
	got := Shown(in, "/m", "/cache/schemas")
	want := Tool{Name: "kc", Bin: "bin/kubeconform", Dir: ".bench/lint",
		Args: []string{"-schema-location", "$(kubeapi.Dir())/{{.x}}", "corpus"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shown = %+v, want %+v", got, want)
	}
	if in.Args[1] != "/cache/schemas/{{.x}}" {
		t.Errorf("Shown changed its argument's Args: %q", in.Args[1])
	}
}
