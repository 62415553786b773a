package plan

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/podrefs"
	"github.com/kubeplan/kubeplan/internal/rollhash"
)

// rolls are the pod templates rollOnConfigChange gave a digest, by the
// workload's Ref.
type rolls map[Ref]roll

// roll is what one pod template's digest is made of.
type roll struct {
	// digest is the template's new digest, live its live one ("" when
	// the live object has none, or there is no live object).
	digest, live string
	// changed names the objects read whose data differs from the live
	// object's, or that do not exist yet ("configmap/settings").
	changed []string
}

// rollOnConfigChange (Options.RollOnConfigChange) writes rollhash's
// digest of the ConfigMaps and Secrets of the set that each pod template
// reads into the template's annotations, so that a change of their data
// changes the template and its pods roll. Objects the set does not hold
// (the cluster's, a SealedSecret's) are not read: no request is made.
// A Secret read gets a key (rollhash.KeyAnnotation): its own, else the
// live one's, else a new one, then applied with it.
func (p *planner) rollOnConfigChange(targets []*target, live map[*target]*unstructured.Unstructured) (rolls, error) {
	if !p.opts.RollOnConfigChange {
		return nil, nil
	}
	set := map[podrefs.Key]*target{}
	for _, t := range targets {
		if t.ref.Group == "" && (t.ref.Kind == podrefs.ConfigMap || t.ref.Kind == podrefs.Secret) {
			set[podrefs.Key{Kind: t.ref.Kind, Namespace: t.ref.Namespace, Name: t.ref.Name}] = t
		}
	}
	d := digests{live: live, done: map[*target][2]string{}}
	out := rolls{}
	for _, t := range targets {
		meta := rollhash.TemplateMeta(t.ref.Group, t.ref.Kind)
		if meta == nil {
			continue
		}
		var refs []rollhash.Ref
		var r roll
		for _, ref := range podrefs.All(t.ref.Group, t.ref.Kind, t.obj.Object) {
			src := set[podrefs.Key{Kind: ref.Kind, Namespace: t.ref.Namespace, Name: ref.Name}]
			if src == nil || slices.Contains(ref.Path, "imagePullSecrets") {
				continue // not the set's, or not read by the pods
			}
			name := strings.ToLower(ref.Kind) + "/" + ref.Name
			if slices.ContainsFunc(refs, func(r rollhash.Ref) bool { return r.Name == name }) {
				continue
			}
			want, was, err := d.of(src)
			if err != nil {
				return nil, err
			}
			refs = append(refs, rollhash.Ref{Name: name, Digest: want})
			if want != was {
				r.changed = append(r.changed, name)
			}
		}
		if len(refs) == 0 {
			continue
		}
		r.digest = rollhash.Template(refs)
		if l := live[t]; l != nil {
			r.live = rollhash.Get(l.Object, meta)
		}
		rollhash.Set(t.obj.Object, meta, r.digest)
		slices.Sort(r.changed)
		out[t.ref] = r
	}
	return out, nil
}

// digests computes each ConfigMap's and Secret's digest once, as it will
// be and as it is live.
type digests struct {
	live map[*target]*unstructured.Unstructured
	done map[*target][2]string
}

// of is t's digest and its live object's ("" when there is none). A
// Secret is given its key first (see rollOnConfigChange); both are
// keyed by it, so they are equal exactly when the values are.
func (d digests) of(t *target) (want, was string, err error) {
	if v, ok := d.done[t]; ok {
		return v[0], v[1], nil
	}
	l := d.live[t]
	if t.ref.Kind == podrefs.ConfigMap {
		want = rollhash.ConfigMap(t.obj.Object)
		if l != nil {
			was = rollhash.ConfigMap(l.Object)
		}
	} else {
		key := rollhash.KeyOf(t.obj.Object)
		if key == "" && l != nil {
			key = rollhash.KeyOf(l.Object)
		}
		if key == "" {
			if key, err = rollhash.NewKey(); err != nil {
				return "", "", err
			}
		}
		ann := t.obj.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		if ann[rollhash.KeyAnnotation] != key {
			ann[rollhash.KeyAnnotation] = key
			t.obj.SetAnnotations(ann)
		}
		want = rollhash.Secret(key, t.obj.Object)
		if l != nil {
			was = rollhash.Secret(key, l.Object)
		}
	}
	d.done[t] = [2]string{want, was}
	return want, was, nil
}

// explain sets RollsFor of each update or replace whose pod template's
// digest changes, to the objects it reads that changed.
func (r rolls) explain(changes []Change) {
	for i := range changes {
		c := &changes[i]
		ro, ok := r[c.Ref]
		if !ok || ro.digest == ro.live || len(ro.changed) == 0 || c.Action != Update && c.Action != Replace {
			continue
		}
		c.RollsFor = ro.changed
	}
}
