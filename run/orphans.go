package run

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/orphans"
	"github.com/kubeplan/kubeplan/project"
)

// OrphansReport is a kubeplan orphans run: each project's report (its
// Status Failed, with Error, when it could not be read) and what was
// found in its namespaces.
type OrphansReport struct {
	*Report
	// Found[i] is what project Projects[i] has in its namespaces; nil
	// when it failed.
	Found []*orphans.Result
}

// Count is how many orphans were found, over every project.
func (r *OrphansReport) Count() int {
	n := 0
	for _, f := range r.Found {
		if f != nil {
			n += len(f.Objects)
		}
	}
	return n
}

// FindOrphans looks, for every project, in the namespaces it manages (its
// own, and the additional namespaces its ApplySet's parent records: those
// the set last wrote to) for objects nobody manages (orphans.Find),
// concurrently, bounded per cluster. A project that cannot be read fails
// in the report; the others are still read. It only reads.
func FindOrphans(ctx context.Context, ps []project.Project, connect Connector, perCluster int) *OrphansReport {
	r := &OrphansReport{Report: newReport(ps), Found: make([]*orphans.Result, len(ps))}
	cls := newClusters(connect)
	flat := make([]project.Project, len(ps))
	for i, p := range ps {
		p.DependsOn = nil // nothing to wait for: every project only reads
		flat[i] = p
	}
	_ = schedule(ctx, flat, r.Projects, perCluster, nil, func(ctx context.Context, i int, _ []*ProjectReport) {
		pr := &r.Projects[i]
		found, err := orphansOne(ctx, cls, pr)
		if err != nil {
			pr.fail(err)
			return
		}
		r.Found[i] = found
	})
	return r
}

func orphansOne(ctx context.Context, cls *clusters, pr *ProjectReport) (*orphans.Result, error) {
	p := pr.Project
	c, name, err := cls.client(p)
	pr.Cluster = name
	if err != nil {
		return nil, err
	}
	pr.Namespace = c.Namespace
	if err := cls.ping(ctx, p); err != nil {
		return nil, err
	}
	namespaces := []string{c.Namespace}
	if p.ApplySet != "" {
		as, err := applyset.ParseParentFlag(p.ApplySet, c.Namespace)
		if err != nil {
			return nil, err
		}
		pr.ApplySet = as.String()
		more, err := setNamespaces(ctx, c, as)
		if err != nil {
			return nil, err
		}
		namespaces = append(namespaces, more...)
	}
	return orphans.Find(ctx, c, namespaces)
}

// setNamespaces are the namespaces besides its own that the ApplySet's
// parent records (none when the set was never applied). Only the parent's
// metadata is read.
func setNamespaces(ctx context.Context, c *kube.Client, as applyset.Parent) ([]string, error) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	parent, err := c.Metadata.Resource(gvr).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the ApplySet parent %s: %w", as, err)
	}
	st, err := as.Read(parent.Labels, parent.Annotations)
	if err != nil {
		return nil, err
	}
	return st.Namespaces, nil
}
