package manifest

import (
	"strings"
	"testing"
)

const twoDocs = `# leading comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: store
spec:
  replicas: three
  template:
    spec:
      containers:
      - name: web
        image: "nginx:1.30"
---
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data:
  currency: EUR
`

func TestParsePositions(t *testing.T) {
	objs, probs := Parse("m.yaml", []byte(twoDocs))
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	if len(objs) != 2 {
		t.Fatalf("got %d objects, want 2", len(objs))
	}
	d, cm := objs[0], objs[1]
	if d.String() != "deployment.apps/web" || d.Namespace != "store" || d.Doc != 0 {
		t.Errorf("identity: %s ns=%q doc=%d", d, d.Namespace, d.Doc)
	}
	if cm.String() != "configmap/settings" || cm.Doc != 1 {
		t.Errorf("identity: %s doc=%d", cm, cm.Doc)
	}
	cases := []struct {
		o    *Object
		path []string
		want Pos
	}{
		{d, []string{"spec", "replicas"}, Pos{8, 13}},
		{d, []string{"spec", "template", "spec", "containers", "0", "image"}, Pos{13, 16}},
		{d, []string{"spec", "template"}, Pos{9, 3}},
		{d, []string{"spec", "nosuch"}, Pos{7, 1}},
		{cm, []string{"data", "currency"}, Pos{20, 13}},
		{cm, []string{"metadata", "name"}, Pos{18, 18}},
		{cm, nil, Pos{16, 1}},
	}
	for _, c := range cases {
		if got := c.o.Pos(c.path...); got != c.want {
			t.Errorf("%s Pos(%v) = %v, want %v", c.o, c.path, got, c.want)
		}
	}
	if _, end := d.Span("spec", "template", "spec", "containers", "0", "image"); end != (Pos{13, 28}) {
		t.Errorf("end of quoted image = %v, want 13:28", end)
	}
	if k := d.KeyPos("spec", "replicas"); k != (Pos{8, 3}) {
		t.Errorf("KeyPos replicas = %v", k)
	}
	if v, _ := d.Get("spec", "replicas"); v != "three" {
		t.Errorf("replicas = %#v", v)
	}
}

func TestParseScalars(t *testing.T) {
	objs, _ := Parse("s.yaml", []byte("apiVersion: v1\nkind: X\nmetadata: {name: a}\nspec: {i: 3, f: 1.5, b: true, n: null, s: '3', t: 2020-01-01, big: 123456789012345678901234567890}\n"))
	spec := objs[0].Content["spec"].(map[string]any)
	if spec["i"] != int64(3) || spec["f"] != 1.5 || spec["b"] != true || spec["n"] != nil || spec["s"] != "3" || spec["t"] != "2020-01-01" {
		t.Errorf("scalars: %#v", spec)
	}
	if _, ok := spec["big"].(float64); !ok {
		t.Errorf("big int should become a float: %#v", spec["big"])
	}
}

func TestParseList(t *testing.T) {
	src := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: b\n"
	objs, probs := Parse("l.yaml", []byte(src))
	if len(probs) != 0 || len(objs) != 2 {
		t.Fatalf("objs=%d probs=%v", len(objs), probs)
	}
	if objs[1].String() != "service/b" || objs[1].Pos("metadata", "name") != (Pos{10, 11}) {
		t.Errorf("second item %s at %v", objs[1], objs[1].Pos("metadata", "name"))
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, src string
		want      Pos
		msg       string
	}{
		{"dup", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n", Pos{5, 3}, `duplicate key "name" (first defined at line 4)`},
		{"tab", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n", Pos{4, 1}, "tab character"},
		{"scalar", "---\njust a string\n", Pos{2, 1}, "document is a scalar"},
		{"list", "- a\n- b\n", Pos{1, 1}, "document is a list"},
		{"utf8", "apiVersion: v1\nkind: ConfigMap\ndata: {a: \"x\xffy\"}\n", Pos{3, 13}, "invalid UTF-8"},
		{"binary", "apiVersion: v1\x00\x01\x02", Pos{1, 15}, "binary data"},
		{"nokind", "apiVersion: v1\nmetadata: {name: a}\n", Pos{1, 1}, "object has no kind"},
		{"badsyntax", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n", Pos{3, 1}, "invalid YAML"},
		{"second-doc", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: [\n", Pos{6, 1}, "invalid YAML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, probs := Parse(c.name+".yaml", []byte(c.src))
			if len(probs) == 0 {
				t.Fatal("no problem reported")
			}
			p := probs[0]
			if p.Pos != c.want || !strings.Contains(p.Message, c.msg) {
				t.Errorf("got %v %q, want %v containing %q", p.Pos, p.Message, c.want, c.msg)
			}
		})
	}
}

func TestParseSkipsNonObjects(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n---\n", "replicaCount: 3\nimage: {tag: x}\n", "~\n"} {
		objs, probs := Parse("values.yaml", []byte(src))
		if len(objs) != 0 || len(probs) != 0 {
			t.Errorf("%q: objs=%d probs=%v", src, len(objs), probs)
		}
	}
	// a list document is fine in a file known not to hold objects
	if _, probs := Parse(".pre-commit-hooks.yaml", []byte("- id: x\n")); len(probs) != 0 {
		t.Errorf("pre-commit hooks file reported: %v", probs)
	}
}

func TestParseAliases(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: &l {app: web}\n  annotations:\n    <<: *l\n    extra: x\n"
	objs, probs := Parse("a.yaml", []byte(src))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	ann := objs[0].Annotations()
	if ann["app"] != "web" || ann["extra"] != "x" {
		t.Errorf("merge key: %v", ann)
	}
}

func TestLazyStartMatchesTree(t *testing.T) {
	for _, src := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"# leading comment\n\n  # indented comment\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"---\n# c\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n\n\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n",
	} {
		objs, _ := Parse("x.yaml", []byte(src))
		for _, o := range objs {
			if o.Lazy == nil {
				t.Fatalf("%q: not decoded by the fast path", src)
			}
			fast := o.Start()
			root, lines := o.Tree()
			if slow := lines.pos(root.Line, root.Column); fast != slow {
				t.Errorf("%q: Start %v, tree says %v", src, fast, slow)
			}
		}
	}
}
