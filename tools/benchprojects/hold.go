package main

import (
	"fmt"
	"os"
	"strings"
)

// hold prints how to run each scenario by hand against the set-up cluster
// (to profile one, with a binary built with -tags profile and
// KUBEPLAN_CPUPROFILE) and waits for a signal, then stops the cluster.
func hold(c *cluster, repo string, tools map[string][]tool, sig chan os.Signal) error {
	fmt.Printf("cd %s\nexport %s\n", repo, strings.Join(c.env(), " "))
	for _, k := range order {
		if k == kKubectl {
			continue
		}
		fmt.Printf("# %s: %s %s\n", k, c.kubeplan, strings.Join(tools[k][0].Args, " "))
	}
	step("holding the cluster; Ctrl-C (or SIGTERM) stops it")
	<-sig
	return c.Stop()
}
