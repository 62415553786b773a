package kubeapi

import (
	"fmt"
	"strings"
)

// Normalize turns "v1.33.2" or "1.33" into "1.33" and checks that the
// version is one the index covers; "" is KubeVersion. It is the one check
// of a Kubernetes version, for --kube-version and for kubeplan.yaml.
func Normalize(v string) (string, error) {
	if v == "" {
		return KubeVersion, nil
	}
	s := strings.TrimPrefix(v, "v")
	if parts := strings.Split(s, "."); len(parts) >= 2 {
		s = parts[0] + "." + parts[1]
	}
	for _, known := range indexedVersions {
		if s == known {
			return s, nil
		}
	}
	return "", fmt.Errorf("kubeplan knows %s", strings.Join(indexedVersions, ", "))
}
