package serve

import (
	"context"
	"encoding/json"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
)

// parentTimeout bounds the record and Event of one parent.
const parentTimeout = 15 * time.Second

// markParents records the source's failure (rec) on the ApplySet parent
// of each project serve knows (those of the last revision it read), with
// a SourceFailed Event, or with rec nil removes the record from those it
// marked and records SourceRecovered there. A parent that does not exist yet is left alone; what
// cannot be written is a log line.
func (s *server) markParents(ctx context.Context, rec *apply.SourceFailing, since time.Time) {
	ps, _ := selected("", s.src.known(), s.o.Projects)
	// The recovery clears the parents marked (a project the new commit
	// removed included), and only those.
	s.mu.Lock()
	if rec != nil {
		s.marked = unionProjects(s.marked, ps)
	} else {
		ps, s.marked = s.marked, nil
	}
	s.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	value := any(nil) // null removes the annotation
	reason, typ := ReasonSourceRecovered, "Normal"
	var err error
	if rec != nil {
		rec.Message = notify.Scrub(rec.Message)
		b, _ := json.Marshal(rec)
		value, reason, typ = string(b), ReasonSourceFailed, "Warning"
		err = errorString(rec.Message)
	}
	rev := s.src.revision()
	for _, p := range ps {
		if p.ApplySet == "" {
			continue
		}
		c, _, cerr := s.cls.Connector(p)
		if cerr != nil {
			s.logf("%s: %v", p.Name, cerr)
			continue
		}
		parent, perr := applyset.ParseParentFlag(p.ApplySet, c.Namespace)
		if perr != nil {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, parentTimeout)
		gvr := schema.GroupVersionResource{Version: "v1", Resource: parent.Resource()}
		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{apply.AnnotationSourceFailing: value}}})
		_, werr := c.Dynamic.Resource(gvr).Namespace(parent.Namespace).Patch(pctx, parent.Name, types.MergePatchType, patch,
			metav1.PatchOptions{FieldManager: s.o.Plan.FieldManager})
		switch {
		case apierrors.IsNotFound(werr):
			cancel()
			continue // nothing applied yet: no record, no Event
		case werr != nil:
			s.logf("%s: recording the source's state on %s: %v", p.Name, parent, werr)
		}
		note := render.SourceEventNote(rev, since, recReason(rec), err)
		if eerr := s.ev.write(pctx, c, parent, reason, typ, note); eerr != nil {
			s.logf("%s: %v", p.Name, eerr)
		}
		cancel()
	}
}

func recReason(rec *apply.SourceFailing) string {
	if rec == nil {
		return ""
	}
	return rec.Reason
}

// unionProjects are the projects of a and b, by name, a's first.
func unionProjects(a, b []project.Project) []project.Project {
	seen := map[string]bool{}
	var out []project.Project
	for _, p := range append(append([]project.Project(nil), a...), b...) {
		if !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	return out
}
