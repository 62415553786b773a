package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// rawApplyInFlight is how many writes the raw apply loop keeps in flight
// (the figure, and kubeplan's default --concurrency).
const rawApplyInFlight = 16

// apply server-side applies every object for real (force, field manager
// kubeplan), inFlight at a time, on a new connection: what any program that
// creates the corpus must at least spend.
func (r *rawClient) apply(ctx context.Context, inFlight int) error {
	return r.applyAll(ctx, inFlight, nil)
}

// dryRunAll sends every object as a server-side apply dry-run, inFlight
// at a time, on a new connection: the half of an all-or-nothing apply
// that proves the whole set is accepted before anything is written.
func (r *rawClient) dryRunAll(ctx context.Context, inFlight int) error {
	return r.applyAll(ctx, inFlight, []string{metav1.DryRunAll})
}

func (r *rawClient) applyAll(ctx context.Context, inFlight int, dryRun []string) error {
	dyn, done, err := r.connect()
	if err != nil {
		return err
	}
	defer done()
	errs := make([]error, len(r.objects))
	force := true
	var g errgroup.Group
	g.SetLimit(inFlight)
	for i := range r.objects {
		g.Go(func() error {
			o := r.objects[i]
			_, err := dyn.Resource(o.gvr).Namespace(r.ns).Patch(ctx, o.name, types.ApplyPatchType, o.data,
				metav1.PatchOptions{FieldManager: fieldManager, Force: &force, DryRun: dryRun})
			if err != nil {
				errs[i] = fmt.Errorf("apply of %s %s: %w", o.gvr.Resource, o.name, err)
			}
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	return firstErrors(errs)
}

// delete deletes the objects named "Kind/name" (of the corpus's kinds),
// inFlight at a time, on a new connection: the least a prune must spend.
func (r *rawClient) delete(ctx context.Context, refs []string, inFlight int) error {
	dyn, done, err := r.connect()
	if err != nil {
		return err
	}
	defer done()
	errs := make([]error, len(refs))
	bg := metav1.DeletePropagationBackground
	var g errgroup.Group
	g.SetLimit(inFlight)
	for i := range refs {
		g.Go(func() error {
			kind, name, _ := strings.Cut(refs[i], "/")
			gvr, ok := corpusResources[kind]
			if !ok {
				errs[i] = fmt.Errorf("%s: kind not in the corpus", refs[i])
				return nil
			}
			if err := dyn.Resource(gvr).Namespace(r.ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil {
				errs[i] = fmt.Errorf("delete of %s: %w", refs[i], err)
			}
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	return firstErrors(errs)
}

// firstErrors joins the first three errors and counts the rest.
func firstErrors(errs []error) error {
	var some []error
	n := 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		if n++; n <= 3 {
			some = append(some, err)
		}
	}
	if n > 3 {
		some = append(some, fmt.Errorf("and %d more", n-3))
	}
	return errors.Join(some...)
}
