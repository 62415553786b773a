package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	c, err := Parse("k.yaml", []byte("kubeVersion: \"1.34\"\nexclude: [\"charts/**\"]\nrules:\n  image-latest: warning\n  replicas-zero: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.KubeVersion != "1.34" || c.Exclude[0] != "charts/**" || c.Rules["image-latest"] != "warning" || c.Rules["replicas-zero"] != "off" {
		t.Errorf("config = %+v", c)
	}
	if c.Where("replicas-zero") != "k.yaml:5:3" {
		t.Errorf("Where = %s", c.Where("replicas-zero"))
	}
}

func TestParseUnknownKey(t *testing.T) {
	_, err := Parse("k.yaml", []byte("kubeVersion: \"1.34\"\nexclud: [x]\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "k.yaml:2:1: ") || !strings.Contains(err.Error(), "exclud") {
		t.Errorf("err = %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".kubeplan.yaml")
	if c, err := Load(p, false); err != nil || c.File != "" {
		t.Errorf("implicit missing: %v %+v", err, c)
	}
	if _, err := Load(p, true); err == nil {
		t.Error("explicit missing config should fail")
	}
	os.WriteFile(p, []byte("rules: {a: error}\n"), 0o644)
	if c, err := Load(p, true); err != nil || c.Rules["a"] != "error" {
		t.Errorf("load: %v %+v", err, c)
	}
}
