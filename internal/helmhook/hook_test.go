package helmhook

import "testing"

func hookObj(ann map[string]any) map[string]any {
	return map[string]any{"metadata": map[string]any{"annotations": ann}}
}

func TestOf(t *testing.T) {
	h := Of(hookObj(map[string]any{Annotation: "pre-install, pre-upgrade", WeightAnnotation: " -5 "}))
	if h.String() != "pre-install,pre-upgrade" || h.Weight != -5 || !h.Deletes(BeforeHookCreation) || !h.Pre("upgrade") || h.Post("install") {
		t.Errorf("hook %+v", h)
	}
	h = Of(hookObj(map[string]any{Annotation: "post-install", WeightAnnotation: "x", DeletePolicyAnnotation: "hook-succeeded"}))
	if h.Weight != 0 || h.Deletes(BeforeHookCreation) || !h.Deletes(HookSucceeded) || !h.Post("install") {
		t.Errorf("hook %+v", h)
	}
	if Of(hookObj(nil)).IsHook() || Of(map[string]any{}).IsHook() {
		t.Error("an object without helm.sh/hook is a hook")
	}
}

func TestPhase(t *testing.T) {
	if Phase(false) != "install" || Phase(true) != "upgrade" {
		t.Errorf("Phase(false)=%q Phase(true)=%q, want install and upgrade", Phase(false), Phase(true))
	}
}

func TestRanRecord(t *testing.T) {
	if k := Key("shop", "job.batch/migrate"); k != "shop/job.batch/migrate" {
		t.Errorf("Key = %q", k)
	}
	a := hookObj(map[string]any{Annotation: "pre-upgrade"})
	b := hookObj(map[string]any{Annotation: "post-upgrade"})
	if da := Digest(a); len(da) != 24 || da != Digest(hookObj(map[string]any{Annotation: "pre-upgrade"})) || da == Digest(b) {
		t.Errorf("Digest %q: want 24 hex digits, stable, different for another hook (%q)", da, Digest(b))
	}
	if m := ParseRan(`{"shop/job.batch/migrate":"abc"}`); len(m) != 1 || m["shop/job.batch/migrate"] != "abc" {
		t.Errorf("ParseRan = %v", m)
	}
	for _, v := range []string{"", "not json", `["a"]`} {
		if m := ParseRan(v); m == nil || len(m) != 0 {
			t.Errorf("ParseRan(%q) = %v, want an empty map", v, m)
		}
	}
}
