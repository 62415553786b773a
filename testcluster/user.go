package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

type userOptions struct {
	dir    string
	name   string
	groups []string
}

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// reserved names would overwrite the cluster's own kubeconfigs.
// kubeletClientCN is the API server's own identity towards the node's kubelet API.
var reserved = map[string]bool{"admin": true, "controller-manager": true, ".admin": true, kubeletClientCN: true}

func parseUser(args []string, stderr io.Writer) (*userOptions, error) {
	o := &userOptions{}
	fs := flag.NewFlagSet("testcluster user", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.dir, "dir", "", "directory of a started cluster (required)")
	fs.StringVar(&o.name, "name", "", "user name: the certificate's CN, and DIR/NAME.kubeconfig (required)")
	fs.Var((*repeated)(&o.groups), "group", "a group of the user (the certificate's O); repeat for more")
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err}
	}
	var err error
	switch {
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected arguments: %q", fs.Args())
	case o.dir == "":
		err = errors.New("--dir is required")
	case o.name == "":
		err = errors.New("--name is required")
	case !validName.MatchString(o.name):
		err = fmt.Errorf("--name %q: use letters, digits and . _ : @ - only", o.name)
	case reserved[o.name]:
		err = fmt.Errorf("--name %q is reserved for the cluster's own kubeconfig", o.name)
	case slices.Contains(o.groups, ""):
		err = errors.New("--group must not be empty")
	}
	if err != nil {
		return nil, usageError{err}
	}
	return o, nil
}

// runUser writes DIR/NAME.kubeconfig with a client certificate signed by the cluster's CA.
func runUser(o *userOptions, stdout io.Writer) error {
	ca, err := loadAuthority(o.dir)
	if err != nil {
		return err
	}
	server, err := serverURL(o.dir)
	if err != nil {
		return err
	}
	path := filepath.Join(o.dir, o.name+".kubeconfig")
	if err := writeKubeconfig(path, server, ca, o.name, o.groups); err != nil {
		return err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	fmt.Fprintln(stdout, abs)
	return nil
}
