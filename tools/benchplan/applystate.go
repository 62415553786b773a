package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// inspector reads a namespace's corpus objects to check what a run wrote
// and pruned: it is never timed.
type inspector struct {
	dyn dynamic.Interface
}

func newInspector(kubeconfig string) (*inspector, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = -1, 0
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &inspector{dyn: dyn}, nil
}

// snapshot is the resourceVersion of every ConfigMap, Service and
// Deployment of a namespace (the ApplySet parent is one of the ConfigMaps),
// by "kind/name", and a fingerprint of each without what a run that finds
// nothing to do may move: the resourceVersion, managedFields and the
// parent's kubeplan.dev/checked-at time (docs/apply.md).
type snapshot struct {
	RV    map[string]string
	FP    map[string]string
	MaxRV int64
}

// checkedAt is the annotation a no-op CLI run moves on the parent, at most
// once a minute (apply/record.go).
const checkedAt = "kubeplan.dev/checked-at"

// fingerprint is the object's JSON without resourceVersion, managedFields
// and the checked-at annotation.
func fingerprint(u *unstructured.Unstructured) string {
	c := u.DeepCopy()
	c.SetResourceVersion("")
	c.SetManagedFields(nil)
	if a := c.GetAnnotations(); a != nil {
		delete(a, checkedAt)
		c.SetAnnotations(a)
	}
	b, err := json.Marshal(c.Object)
	if err != nil {
		return "?"
	}
	return string(b)
}

func (in *inspector) snapshot(ctx context.Context, ns string) (snapshot, error) {
	s := snapshot{RV: map[string]string{}, FP: map[string]string{}}
	for _, kind := range []string{"ConfigMap", "Service", "Deployment"} {
		l, err := in.dyn.Resource(corpusResources[kind]).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return s, fmt.Errorf("listing %ss in %s: %w", kind, ns, err)
		}
		for _, it := range l.Items {
			rv := it.GetResourceVersion()
			s.RV[kind+"/"+it.GetName()] = rv
			s.FP[kind+"/"+it.GetName()] = fingerprint(&it)
			if n, err := strconv.ParseInt(rv, 10, 64); err == nil {
				s.MaxRV = max(s.MaxRV, n)
			}
		}
	}
	return s, nil
}

// stateDiff is what changed in a namespace between two snapshots.
type stateDiff struct {
	Changed, Removed, Added []string // "kind/name", sorted
	// Rechecked were written with nothing changed but the checked-at time
	// (the parent, after a no-op run): not counted as changed.
	Rechecked               []string
	MaxRVBefore, MaxRVAfter int64
}

func diffSnapshots(before, after snapshot) stateDiff {
	d := stateDiff{MaxRVBefore: before.MaxRV, MaxRVAfter: after.MaxRV}
	for k, rv := range before.RV {
		switch a, ok := after.RV[k]; {
		case !ok:
			d.Removed = append(d.Removed, k)
		case a != rv && before.FP[k] != "" && before.FP[k] == after.FP[k]:
			d.Rechecked = append(d.Rechecked, k)
		case a != rv:
			d.Changed = append(d.Changed, k)
		}
	}
	for k := range after.RV {
		if _, ok := before.RV[k]; !ok {
			d.Added = append(d.Added, k)
		}
	}
	sort.Strings(d.Changed)
	sort.Strings(d.Removed)
	sort.Strings(d.Added)
	return d
}

// unchanged says that nothing in the namespace was changed: no object
// added, removed, or given new content (only the parent's checked-at time
// may have moved, and with it resourceVersions).
func (d stateDiff) unchanged() bool {
	return len(d.Changed) == 0 && len(d.Removed) == 0 && len(d.Added) == 0 &&
		(d.MaxRVBefore == d.MaxRVAfter || len(d.Rechecked) > 0)
}

// prunedExactly says that exactly the objects want (kind/name) were removed
// and nothing was added.
func (d stateDiff) prunedExactly(want []string) bool {
	if len(d.Removed) != len(want) || len(d.Added) != 0 {
		return false
	}
	w := append([]string(nil), want...)
	sort.Strings(w)
	for i := range w {
		if w[i] != d.Removed[i] {
			return false
		}
	}
	return true
}

// waitAvailable waits until every Deployment in the namespaces is
// Available, then for the cluster to go quiet.
func (c *cluster) waitAvailable(deployments int, nss ...string) error {
	timeout := fmt.Sprintf("--timeout=%ds", 60+deployments/5)
	for _, ns := range nss {
		if _, err := c.kubectl(nil, "-n", ns, "wait", "--for=condition=Available", "deployment", "--all", timeout); err != nil {
			return err
		}
	}
	c.settle()
	return nil
}

// deleteNamespaces deletes the namespaces, waits until they are gone (their
// Services' cluster IPs are free again: the range is a /24) and for the
// cluster to go quiet.
func (c *cluster) deleteNamespaces(nss ...string) (time.Duration, error) {
	start := time.Now()
	if _, err := c.kubectl(nil, append([]string{"delete", "namespace", "--wait=true", "--timeout=10m"}, nss...)...); err != nil {
		return 0, err
	}
	took := time.Since(start)
	c.settle()
	return took, nil
}
