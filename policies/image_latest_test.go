package policies

import "testing"

func TestImageLatest(t *testing.T) {
	deploy := func(image string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: " + image + "\n"
	}
	c0 := []string{"spec", "template", "spec", "containers", "0", "image"}
	runRule(t, "image-latest", []ruleCase{
		{name: "latest", yaml: deploy("nginx:latest"), want: []want{{c0, `image "nginx:latest" uses the latest tag`}}},
		{name: "no tag", yaml: deploy("nginx"), want: []want{{c0, `image "nginx" has no tag, so it means latest`}}},
		{name: "registry port no tag", yaml: deploy("localhost:5000/nginx"), want: []want{{c0, "has no tag"}}},
		{name: "registry port latest", yaml: deploy("localhost:5000/team/nginx:latest"), want: []want{{c0, "uses the latest tag"}}},
		{name: "message says what to do", yaml: deploy("nginx"), want: []want{{c0, "pin a version tag or a digest"}}},
		{name: "pinned", yaml: deploy("nginx:1.27.0")},
		{name: "registry port pinned", yaml: deploy("localhost:5000/nginx:1.27")},
		{name: "digest", yaml: deploy("nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")},
		{name: "latest with digest", yaml: deploy("nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")},
		{name: "pod all container lists", yaml: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers: [{name: i, image: "busybox"}]
  containers: [{name: a, image: "app:1.0"}, {name: b, image: "sidecar:latest"}]
  ephemeralContainers: [{name: d, image: debug}]
`, want: []want{
			{[]string{"spec", "containers", "1", "image"}, `"sidecar:latest"`},
			{[]string{"spec", "initContainers", "0", "image"}, `"busybox"`},
			{[]string{"spec", "ephemeralContainers", "0", "image"}, `"debug"`},
		}},
		{name: "cronjob", yaml: `apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: a, image: "job"}]}}}}}
`, want: []want{{[]string{"spec", "jobTemplate", "spec", "template", "spec", "containers", "0", "image"}, "no tag"}}},
		{name: "podtemplate", yaml: "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: t}\ntemplate: {spec: {containers: [{name: a, image: 'x:latest'}]}}\n",
			want: []want{{[]string{"template", "spec", "containers", "0", "image"}, "latest tag"}}},
		{name: "job daemonset statefulset replicaset rc", yaml: `apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec: {template: {spec: {containers: [{name: a, image: j}]}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d}
spec: {template: {spec: {containers: [{name: a, image: d}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec: {template: {spec: {containers: [{name: a, image: s}]}}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: r}
spec: {template: {spec: {containers: [{name: a, image: r}]}}}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec: {template: {spec: {containers: [{name: a, image: rc}]}}}
`, want: []want{{c0, `"j"`}, {c0, `"d"`}, {c0, `"s"`}, {c0, `"r"`}, {c0, `"rc"`}}},
		{name: "other kinds ignored", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {image: nginx}\n"},
		{name: "crd with pod-like shape ignored", yaml: "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: c}\nspec: {template: {spec: {containers: [{image: nginx}]}}}\n"},
	})
}

func TestImageTag(t *testing.T) {
	for _, tc := range []struct {
		image, tag string
		pinned     bool
	}{
		{"nginx", "", false},
		{"nginx:1.2", "1.2", false},
		{"docker.io/library/nginx:latest", "latest", false},
		{"localhost:5000/nginx", "", false},
		{"[::1]:5000/nginx:v1", "v1", false},
		{"nginx@sha256:abc", "", true},
	} {
		tag, pinned := imageTag(tc.image)
		if tag != tc.tag || pinned != tc.pinned {
			t.Errorf("imageTag(%q) = %q, %v; want %q, %v", tc.image, tag, pinned, tc.tag, tc.pinned)
		}
	}
}
