package plan

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// immutableWords are how the apiserver says a field cannot be changed in
// place: "field is immutable" (Deployment spec.selector, Job
// spec.template), "may not change once set" (Service spec.clusterIPs[0]),
// "spec is immutable after creation ..." (PersistentVolumeClaim), and the
// StatefulSet's "updates to statefulset spec for fields other than ...
// are forbidden".
var immutableWords = []string{"immutable", "may not change once set", "updates to statefulset spec for fields other than"}

// immutableReason reports whether err is the server refusing an object
// only because it changes fields that cannot change in place, and names
// them: "spec.selector is immutable".
func immutableReason(err error) (string, bool) {
	var se apierrors.APIStatus
	if !errors.As(err, &se) {
		return "", false
	}
	st := se.Status()
	if st.Code != http.StatusUnprocessableEntity || st.Details == nil || len(st.Details.Causes) == 0 {
		return "", false
	}
	var fields []string
	seen := map[string]bool{}
	for _, cause := range st.Details.Causes {
		if !containsAny(cause.Message, immutableWords) {
			return "", false
		}
		f := cause.Field
		if f == "" {
			f = "a field"
		}
		if !seen[f] {
			seen[f] = true
			fields = append(fields, f)
		}
	}
	verb := "is"
	if len(fields) > 1 {
		verb = "are"
	}
	return strings.Join(fields, ", ") + " " + verb + " immutable", true
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// neverReplaced are the kinds whose deletion loses data no manifest holds:
// a claim's volume, everything in a namespace, every custom resource of a
// definition.
var neverReplaced = map[string]string{
	"/PersistentVolumeClaim": "deleting a PersistentVolumeClaim can delete its volume and the data on it",
	"/Namespace":             "deleting a Namespace deletes everything in it",
	"apiextensions.k8s.io/CustomResourceDefinition": "deleting a CustomResourceDefinition deletes all its custom resources",
}

// replacement turns a change the server refused for immutable fields into
// a Replace. Its diff compares the manifest, as it will be created again,
// with what manager applied of the live object (see ownedPart), or the
// whole live object when manager did not apply it. Kinds in neverReplaced
// stay an error that says why.
func replacement(c Change, live, want *unstructured.Unstructured, reason, manager string) (Change, error) {
	if why, ok := neverReplaced[c.Ref.Group+"/"+c.Ref.Kind]; ok {
		return c, fmt.Errorf("%s; kubeplan never replaces a %s (%s): change it by hand, or delete it yourself first", reason, c.Ref.Kind, why)
	}
	c.Action, c.Reason, c.planned = Replace, reason, want.Object
	liveObj := live.Object
	if owned, ok := ownedPart(live, manager); ok {
		liveObj = owned
	}
	c.Diff = diffKept(liveObj, want.Object, c.Kept)
	return c, nil
}

// checkReplacePermissions asks whether the identity may delete each object
// the plan replaces: the preflight ran before the dry-runs showed that
// they must be deleted.
func (p *planner) checkReplacePermissions(ctx context.Context, targets []*target, changes []Change) error {
	var perms []Permission
	for i, c := range changes {
		if c.Action != Replace {
			continue
		}
		t := targets[i]
		ns := ""
		if t.scoped {
			ns = t.obj.GetNamespace()
		}
		perms = append(perms, Permission{Verb: "delete", Group: t.gvr.Group, Resource: t.gvr.Resource, Namespace: ns, Name: t.obj.GetName(), Why: "replace " + c.Ref.String()})
	}
	if len(perms) == 0 {
		return nil
	}
	missing, err := p.checkPermissions(ctx, perms)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return missing
	}
	return nil
}
