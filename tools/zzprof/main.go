package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

func main() {
	root := os.Args[1]
	cfg, _ := config.Discover(root)
	ps, err := project.Load(root, cfg, project.Options{})
	if err != nil {
		panic(err)
	}
	kv, _ := lint.NormalizeKubeVersion("")
	var clients []*kube.Client
	o := run.Options{Root: root,
		Connect: func(p project.Project) (*kube.Client, string, error) {
			kc := os.Getenv("KUBECONFIG")
			f := kube.Flags()
			f.KubeConfig = &kc
			c, err := kube.Connect(f)
			clients = append(clients, c)
			return c, "x", err
		},
		Lint: func(project.Project) (lint.Input, lint.Options, error) {
			return lint.Input{}, lint.Options{KubeVersion: kv}, nil
		},
	}
	t0 := time.Now()
	r, err := run.Plan(context.Background(), ps[:1], o)
	fmt.Println(time.Since(t0), err, r.Total())
	fmt.Printf("%+v\n", clients[0].Requests)
}
