package health

import (
	"context"
	"slices"
	"strings"
	"unicode"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/podrefs"
)

// healthMasked stands for a Secret value in a diagnosis, as plan.Masked
// does in a diff.
const healthMasked = "***"

// masker replaces Secret values in text read from the cluster.
type masker struct{ values []string }

func newMasker(values []string) *masker {
	m := &masker{}
	m.add(values...)
	return m
}

// add adds values to mask; values of fewer than 3 characters are not
// masked (they would mask every "a" and "1" of a log), nor blank ones.
func (m *masker) add(values ...string) {
	for _, v := range values {
		if len(strings.TrimFunc(v, unicode.IsSpace)) < 3 || slices.Contains(m.values, v) {
			continue
		}
		m.values = append(m.values, v)
		// A multi-line value (a key, a certificate) is masked line by
		// line too, since logs and notes are read a line at a time.
		if strings.Contains(v, "\n") {
			for _, l := range strings.Split(v, "\n") {
				m.add(l)
			}
		}
	}
	// Longest first, so a value that contains another is masked whole.
	slices.SortStableFunc(m.values, func(a, b string) int { return len(b) - len(a) })
}

// text returns s with every value replaced by healthMasked and control
// characters other than tab removed (a log is not allowed to move the
// cursor or colour the terminal).
func (m *masker) text(s string) string {
	for _, v := range m.values {
		s = strings.ReplaceAll(s, v, healthMasked)
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
}

// maskReferenced adds to the mask the values of every Secret the pods
// reference, in namespace ns: env secretKeyRef, envFrom secretRef, secret
// and projected volumes, imagePullSecrets, those marked optional: true
// included (a pod reads an optional Secret when it exists). It returns
// the Secrets it could not read: a log is withheld while one of them may
// hold a value it prints. A Secret that does not exist, optional or not,
// holds nothing to mask.
func (d *diagnoser) maskReferenced(ctx context.Context, ns string, pods []unstructured.Unstructured) []string {
	var unreadable []string
	for i := range pods {
		for _, r := range podrefs.All("", "Pod", pods[i].Object) {
			if r.Kind != podrefs.Secret {
				continue
			}
			if err := d.readSecret(ctx, ns, r.Name); err != nil && !slices.Contains(unreadable, r.Name) {
				unreadable = append(unreadable, r.Name)
			}
		}
	}
	return unreadable
}

// readSecret adds the values of Secret ns/name to the mask (once); its
// error when it cannot be read (a Secret that does not exist holds
// nothing to mask).
func (d *diagnoser) readSecret(ctx context.Context, ns, name string) error {
	k := ns + "/" + name
	if err, done := d.secretErr[k]; done {
		return err
	}
	u, err := d.c.Dynamic.Resource(healthSecretsGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	switch {
	case err == nil:
		if d.secretValues != nil {
			d.mask.add(d.secretValues(u.Object)...)
		}
	case apierrors.IsNotFound(err):
		err = nil
	}
	d.secretErr[k] = err
	return err
}
