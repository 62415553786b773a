package config

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

// kubeVersion reads a Kubernetes version and normalizes it ("v1.36.2" is
// "1.36"); one kubeplan has no API index for is an error.
func (d decoder) kubeVersion(n *yaml.Node, where string) (string, error) {
	s, err := d.str(n, where)
	if err != nil || s == "" {
		return "", err
	}
	v, err := kubeapi.Normalize(s)
	if err != nil {
		return "", d.errorf(deref(n), "%s %q is not supported: %v", where, s, err)
	}
	return v, nil
}

// IsGlob reports whether a path has glob syntax: *, ?, ** or [.
func IsGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// validate checks the values Parse read that their type does not: the
// applyset and namespace formats, the windows, the entries' paths and
// names.
func (c *Config) validate() error {
	if err := c.checkSettings(c.Defaults, "defaults"); err != nil {
		return err
	}
	for i, e := range c.Projects {
		where := fmt.Sprintf("projects[%d]", i)
		switch {
		case e.Path == "":
			return fmt.Errorf("%s: %s: path is required (a directory or a glob of them, relative to %s)", c.At(e.At), where, c.File)
		case e.Glob() && e.Name != "":
			return fmt.Errorf("%s: %s.name: a glob path (%s) matches several projects, so it cannot set a name; each keeps its discovered name", c.At(e.Pos["name"]), where, e.Path)
		case e.Glob() && e.Helm != nil:
			return fmt.Errorf("%s: %s.helm: a glob path (%s) matches several projects, so it cannot set how one chart is rendered; declare each chart by its path", c.At(e.Pos["helm"]), where, e.Path)
		}
		if e.Helm != nil && e.Helm.ReleaseName != "" {
			if errs := validation.IsDNS1123Subdomain(e.Helm.ReleaseName); len(errs) > 0 {
				return fmt.Errorf("%s: %s.helm.releaseName %q: %s", c.At(e.Helm.Pos["releaseName"]), where, e.Helm.ReleaseName, strings.Join(errs, "; "))
			}
		}
		if err := c.checkSettings(e.Settings, where); err != nil {
			return err
		}
	}
	return nil
}

// checkSettings checks the namespace and applyset formats of s, with
// {name} standing for a valid name, and its windows.
func (c *Config) checkSettings(s Settings, where string) error {
	if s.Namespace != "" {
		ns := strings.ReplaceAll(s.Namespace, NamePlaceholder, "name")
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return fmt.Errorf("%s: %s.namespace %q: %s", c.At(s.Pos["namespace"]), where, s.Namespace, strings.Join(errs, "; "))
		}
	}
	if s.ApplySet != "" {
		if err := CheckApplySet(strings.ReplaceAll(s.ApplySet, NamePlaceholder, "name")); err != nil {
			return fmt.Errorf("%s: %s.applyset: %w", c.At(s.Pos["applyset"]), where, err)
		}
	}
	// The windows are compiled again for each project (project.Load);
	// here a bad one fails reading the file, lint included.
	if _, err := guard.CompileWindows(s.Windows); err != nil {
		return err
	}
	return nil
}

// CheckApplySet checks an applyset setting as --applyset is checked
// (applyset.ParseParentFlag), whatever the namespace.
func CheckApplySet(s string) error {
	_, err := applyset.ParseParentFlag(s, "default")
	return err
}
