package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every object of the waved copy carries the wave waveOf gives it, the
// pod templates none, and the rest of the object is unchanged.
func TestWritePlacesEveryObjectInItsWave(t *testing.T) {
	src, dst := filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "w")
	if _, err := generate(src, tiny); err != nil {
		t.Fatal(err)
	}
	if err := writeWaved(src, dst, 3); err != nil {
		t.Fatal(err)
	}
	plain, err := loadCorpus(src)
	if err != nil {
		t.Fatal(err)
	}
	waved, err := loadCorpus(dst)
	if err != nil {
		t.Fatal(err)
	}
	want := waveOf(tiny, 3)
	if len(waved) != len(plain) || len(want) != len(plain) {
		t.Fatalf("%d objects waved, %d plain, %d in waveOf", len(waved), len(plain), len(want))
	}
	seen := map[int]bool{}
	for i, o := range waved {
		key := strings.ToLower(o.GetKind()) + "s/" + o.GetName()
		got, err := strconv.Atoi(o.GetAnnotations()[waveAnnotation])
		if err != nil || got != want[key] {
			t.Errorf("%s: wave %q, want %d", key, o.GetAnnotations()[waveAnnotation], want[key])
		}
		seen[got] = true
		if o.GetKind() == "Deployment" {
			if tmpl, _, _ := unstructuredMap(o.Object, "spec", "template", "metadata"); tmpl["annotations"] != nil {
				t.Errorf("%s: the pod template got annotations", key)
			}
		}
		o.SetAnnotations(nil)
		if p := plain[i]; p.GetName() != o.GetName() || len(p.Object) != len(o.Object) {
			t.Errorf("object %d differs beyond its annotation: %s vs %s", i, p.GetName(), o.GetName())
		}
	}
	if len(seen) != 3 {
		t.Errorf("waves used: %v, want 0, 1, 2", seen)
	}
}

func unstructuredMap(obj map[string]any, path ...string) (map[string]any, bool, error) {
	cur := obj
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil, false, nil
		}
		cur = next
	}
	return cur, true, nil
}

// waveGaps measures from the first write of the next wave back to the
// wave's last Deployment seen healthy, and refuses writes that go back to
// an earlier wave.
func TestWaveGaps(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	write := func(key string, ms int) auditEvent {
		var e auditEvent
		e.Verb, e.User.Username, e.UserAgent = "patch", "kubernetes-admin", "kubeplan/v1"
		res, name, _ := strings.Cut(key, "/")
		e.ObjectRef.Resource, e.ObjectRef.Name, e.ObjectRef.Namespace = res, name, "ns"
		e.ResponseStatus.Code = 200
		e.Received, e.Done = at(ms), at(ms+2)
		return e
	}
	status := write("deployments/a", 0)
	status.ObjectRef.Subresource, status.User.Username, status.UserAgent = "status", "system:kube-controller-manager", "kcm"
	wave := map[string]int{"deployments/a": 0, "configmaps/a": 0, "deployments/b": 1}
	status.Received, status.Done = at(1000), at(1001)
	dry := write("deployments/b", 10)
	dry.RequestURI = "/apis/apps/v1/namespaces/ns/deployments/b?dryRun=All"
	events := []auditEvent{dry, write("configmaps/a", 20), write("deployments/a", 30), status, write("deployments/b", 1400)}
	a, err := waveGaps(events, "ns", wave, map[string]time.Time{"a": at(1100), "b": at(2000)}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Gaps) != 1 || a.Gaps[0].Gap != 300*time.Millisecond || a.Gaps[0].StatusGap != 399*time.Millisecond || a.Gaps[0].Deployment != "a" {
		t.Fatalf("gaps %+v, want one of 300ms (399ms from the status write) after a", a.Gaps)
	}
	events = append(events, write("configmaps/a", 1500))
	if _, err := waveGaps(events, "ns", wave, map[string]time.Time{"a": at(1100), "b": at(2000)}, 2); err == nil || !strings.Contains(err.Error(), "configmaps/a (wave 0) was written after a write of wave 1") {
		t.Errorf("a write back to wave 0: %v", err)
	}
}

// The report states both verdicts from the numbers it shows.
func TestWavesMarkdown(t *testing.T) {
	info := &corpusInfo{Spec: smallSpec, Files: 100}
	smp := func(ms int) sample { return sample{Wall: time.Duration(ms) * time.Millisecond, CPU: time.Second} }
	r := &wavesResult{Runs: 2, Stages: 5, Commands: map[string]string{}, Versions: map[string]string{},
		Plain: corpusSet{Namespace: "bench", Dir: "corpus-1200", Info: info}, Waved: corpusSet{Namespace: "benchwaves", Dir: "corpus-1200-waves-5", Info: info},
		PlainSamples: []sample{smp(1000), smp(1000)}, WavedSamples: []sample{smp(1020), smp(1040)},
		Applies: []waveApply{{Waves: 2, Wall: 20 * time.Second, Gaps: []waveGap{{From: 0, Deployment: "orders-000", Gap: 40 * time.Millisecond, StatusGap: 45 * time.Millisecond}}}}}
	md := r.markdown()
	for _, want := range []string{"**Plan: PASS**: in 5 waves 1.030×", "**Apply: PASS**: over 1 wave boundaries", "| 2 | 20.00 s | wave 0 → 1 | orders-000 | 40 ms | 45 ms |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	r.WavedSamples = []sample{smp(1100), smp(1100)}
	r.Applies[0].Gaps[0].Gap = 1500 * time.Millisecond
	md = r.markdown()
	for _, want := range []string{"**Plan: FAIL**", "**Apply: FAIL**"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}
