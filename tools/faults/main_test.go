package faults

import (
	"testing"

	"github.com/kubeplan/kubeplan/tools/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }
