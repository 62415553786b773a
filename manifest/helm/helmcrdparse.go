package helm

import (
	"runtime"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// chartCRDs are the parsed objects of a chart's CRD files (crds/ of the
// chart and of its subcharts), parsed in the background while the
// templates render: CRD files are not templates, and a chart's CRDs can
// be megabytes of YAML (kube-prometheus-stack's are 4.6 MiB), as long to
// parse as the templates take to render.
type chartCRDs struct {
	done  chan struct{}
	objs  []*manifest.Object
	probs []*manifest.Problem
}

// parseCRDs starts parsing the CRD files of ch, at most GOMAXPROCS files
// at a time; wait returns them in helm's order (ch.CRDObjects).
func parseCRDs(chartPath string, ch *chart.Chart) *chartCRDs {
	c := &chartCRDs{done: make(chan struct{})}
	crds := ch.CRDObjects()
	go func() {
		defer close(c.done)
		objs := make([][]*manifest.Object, len(crds))
		probs := make([][]*manifest.Problem, len(crds))
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for i, crd := range crds {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				objs[i], probs[i] = manifest.Parse(chartFile(chartPath, crd.Filename), crd.File.Data)
			}()
		}
		wg.Wait()
		for i := range crds {
			for _, o := range objs[i] {
				o.Chart = chartPath
			}
			c.objs = append(c.objs, objs[i]...)
			c.probs = append(c.probs, probs[i]...)
		}
	}()
	return c
}

// wait is the parsed CRDs once every file is parsed.
func (c *chartCRDs) wait() ([]*manifest.Object, []*manifest.Problem) {
	<-c.done
	return c.objs, c.probs
}
