package helm_test

import (
	"context"
	"encoding/base64"
	"sync/atomic"

	"github.com/kubeplan/kubeplan/manifest/helm"
)

// fakeLookup is a helm.Lookup over a fixed set of objects, as the cluster
// would answer: the object by name, a list ({"items": [...]}) when the
// name is empty, an empty map when there is none.
type fakeLookup struct {
	objs  []map[string]any
	calls atomic.Int64
	// err, when set, is what every Lookup returns.
	err error
	// block, when set, makes Lookup wait for its context to end.
	block bool
	// sawDone is set when a blocked Lookup saw its context end.
	sawDone atomic.Bool
}

func (f *fakeLookup) Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, error) {
	f.calls.Add(1)
	if f.block {
		<-ctx.Done()
		f.sawDone.Store(true)
		return nil, ctx.Err()
	}
	if f.err != nil {
		return nil, f.err
	}
	var items []any
	for _, o := range f.objs {
		meta := o["metadata"].(map[string]any)
		if o["apiVersion"] != apiVersion || o["kind"] != kind || meta["namespace"] != namespace {
			continue
		}
		if name == "" {
			items = append(items, helm.DeepCopyJSON(o))
		} else if meta["name"] == name {
			return helm.DeepCopyJSON(o).(map[string]any), nil
		}
	}
	if name == "" {
		return map[string]any{"apiVersion": "v1", "kind": kind + "List", "items": items}, nil
	}
	return map[string]any{}, nil
}

// The values of the Secrets the fake cluster holds: unique strings no
// render may show unless it was given the real data.
const (
	realPassword = "s3cr3t-Canary-9f2e"
	realPostgres = "pg-Canary-71c4a0"
	realOther    = "xq7-Canary-d00d"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// secretObj is a v1 Secret in namespace default with data (plain values,
// stored base64) and kubectl's last-applied annotation holding them.
func secretObj(name string, data map[string]string) map[string]any {
	d := map[string]any{}
	for k, v := range data {
		d[k] = b64(v)
	}
	applied := `{"apiVersion":"v1","kind":"Secret","data":{`
	for k, v := range d {
		applied += `"` + k + `":"` + v.(string) + `",`
	}
	applied += `}}`
	return map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": name, "namespace": "default",
			"annotations": map[string]any{helm.LastApplied: applied}},
		"type": "Opaque", "data": d}
}

const dbChart = "../../testdata/charts/database"

// dbLookup is a cluster where the database chart was installed: its
// Secret holds the passwords generated then.
func dbLookup() *fakeLookup {
	return &fakeLookup{objs: []map[string]any{
		secretObj("release-name-database", map[string]string{"password": realPassword, "postgres-password": realPostgres}),
	}}
}

// leakLookup is a cluster with the Secret db the leak chart reads, and
// another one its list lookup finds.
func leakLookup() *fakeLookup {
	return &fakeLookup{objs: []map[string]any{
		secretObj("db", map[string]string{"password": realPassword}),
		secretObj("other", map[string]string{"password": realOther}),
	}}
}
