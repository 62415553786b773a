package manifest

import "testing"

func TestSlimKeepsIdentityAndNamePosition(t *testing.T) {
	objs, _ := Parse("a.yaml", []byte("# c\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  namespace: store\n  name: web\nspec: {replicas: 3}\n"))
	s := objs[0].Slim()
	if s.String() != "deployment.apps/web" || s.Namespace != "store" || s.File != "a.yaml" {
		t.Errorf("identity: %s %s %s", s, s.Namespace, s.File)
	}
	if got, want := s.Pos("metadata", "name"), objs[0].Pos("metadata", "name"); got != want || got != (Pos{7, 9}) {
		t.Errorf("name pos = %v, want %v", got, want)
	}
	if s.Start() != objs[0].Start() || !s.HasName() {
		t.Errorf("start %v / has name %v", s.Start(), s.HasName())
	}
	if _, ok := s.Get("spec"); ok {
		t.Error("slim copy kept spec")
	}
}
