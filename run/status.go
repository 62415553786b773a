package run

import (
	"context"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/project"
)

// ReadStatus reads every project's ApplySet status (apply.ReadStatus),
// concurrently, bounded per cluster. A project that cannot be read is
// failed in the report; the others are still read. rules are the health
// rules in CEL (kubeplan.yaml's health:; nil: the built-in ones). It only
// reads.
func ReadStatus(ctx context.Context, ps []project.Project, connect Connector, perCluster int, rules *healthexpr.Set) *Report {
	r := newReport(ps)
	cls := newClusters(connect)
	// Status has no order to keep: a status read never waits for another.
	flat := make([]project.Project, len(ps))
	for i, p := range ps {
		p.DependsOn = nil
		flat[i] = p
	}
	_ = schedule(ctx, flat, r.Projects, perCluster, nil, func(ctx context.Context, i int, _ []*ProjectReport) {
		pr := &r.Projects[i]
		if err := statusOne(ctx, cls, pr, rules); err != nil {
			pr.fail(err)
		}
	})
	return r
}

func statusOne(ctx context.Context, cls *clusters, pr *ProjectReport, rules *healthexpr.Set) error {
	p := pr.Project
	c, name, err := cls.client(p)
	pr.Cluster = name
	if err != nil {
		return err
	}
	pr.Namespace = c.Namespace
	if err := cls.ping(ctx, p); err != nil {
		return err
	}
	as, err := applyset.ParseParentFlag(p.ApplySet, c.Namespace)
	if err != nil {
		return err
	}
	pr.ApplySet = as.String()
	st, err := apply.ReadStatus(ctx, c, as, rules)
	if err != nil {
		return err
	}
	pr.Health, pr.Status = st, statusOf(st)
	if pr.Status == Failed {
		pr.Error = st.LastError
	}
	return nil
}

// statusOf is a project's status from its record: failed when its last
// run failed, applied otherwise.
func statusOf(st *apply.Status) Status {
	if st.Result == "failed" {
		return Failed
	}
	return Applied
}
