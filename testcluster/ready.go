package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

const pollInterval = 100 * time.Millisecond

// readyCheck is one condition the cluster must meet before it is announced ready.
type readyCheck struct {
	what string
	ok   func(ctx context.Context, c kubernetes.Interface) error
}

// apiserverReady: /readyz answers ok.
var apiserverReady = readyCheck{"kube-apiserver /readyz", func(ctx context.Context, c kubernetes.Interface) error {
	body, err := c.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
	if err != nil {
		return err
	}
	if string(body) != "ok" {
		return fmt.Errorf("readyz: %s", body)
	}
	return nil
}}

// controllersReady: the controllers that tests depend on right away have done their first work.
var controllersReady = []readyCheck{
	{"clusterrole edit aggregated", func(ctx context.Context, c kubernetes.Interface) error {
		role, err := c.RbacV1().ClusterRoles().Get(ctx, "edit", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(role.Rules) == 0 {
			return errors.New("clusterrole edit has no rules yet")
		}
		return nil
	}},
	{"serviceaccount default/default", func(ctx context.Context, c kubernetes.Interface) error {
		_, err := c.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		return err
	}},
	{"configmap default/kube-root-ca.crt", func(ctx context.Context, c kubernetes.Interface) error {
		_, err := c.CoreV1().ConfigMaps("default").Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
		return err
	}},
}

// waitFor polls each check in turn until it passes, ctx ends, or a component
// reports a failure on failed.
func waitFor(ctx context.Context, c kubernetes.Interface, failed <-chan error, checks ...readyCheck) error {
	for _, check := range checks {
		var last error
		for {
			callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			last = check.ok(callCtx, c)
			cancel()
			if last == nil {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s: %w (last: %v)", check.what, ctx.Err(), last)
			case err := <-failed:
				return fmt.Errorf("waiting for %s: %w", check.what, err)
			case <-time.After(pollInterval):
			}
		}
	}
	return nil
}
