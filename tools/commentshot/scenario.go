package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

const (
	namespace = "store"
	applyset  = "configmap/gitops-applyset"
)

// unchanged are objects both versions have as they are: the plan lists
// them as unchanged, and the comment must not make a reviewer scroll past them.
var unchanged = map[string]string{
	"service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 8080
`,
	"serviceaccount.yaml": `apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
`,
	"settings.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  currency: EUR
  locale: de-DE
`,
	"nginx.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: nginx-conf
data:
  nginx.conf: |
    server { listen 8080; location / { proxy_pass http://127.0.0.1:3000; } }
`,
	"pdb.yaml": `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 1
  selector:
    matchLabels: {app: web}
`,
	"networkpolicy.yaml": `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels: {app: web}
  ingress:
  - ports:
    - port: 8080
`,
}

func deployment(image string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      serviceAccountName: web
      containers:
      - name: web
        image: ` + image + `
        ports:
        - containerPort: 8080
        envFrom:
        - secretRef: {name: db-credentials}
`
}

func secret(password string) string {
	return `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
type: Opaque
stringData:
  DB_USER: shop
  DB_PASSWORD: ` + password + `
`
}

// first is what the cluster runs before the pull request.
func first() map[string]string {
	files := map[string]string{
		"deployment.yaml": deployment("ghcr.io/acme/web:1.4.1"),
		"secret.yaml":     secret("correct-horse-battery-staple"),
		"legacy-flags.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: legacy-flags
data:
  checkout-v1: "true"
`,
	}
	for k, v := range unchanged {
		files[k] = v
	}
	return files
}

// second is the pull request: a new image and password, two new objects,
// the legacy flags gone.
func second() map[string]string {
	files := map[string]string{
		"deployment.yaml": deployment("ghcr.io/acme/web:1.5.0"),
		"secret.yaml":     secret("tr0ub4dor-and-3"),
		"feature-flags.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: feature-flags
data:
  checkout-v2: "true"
`,
		"cronjob.yaml": `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-report
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: ghcr.io/acme/report:2.0.3
`,
	}
	for k, v := range unchanged {
		files[k] = v
	}
	return files
}

// planOnCluster runs the scenario on a fresh testcluster and returns
// kubeplan's markdown plan of the second version.
func planOnCluster(kubeplan string) ([]byte, error) {
	kubeplan, err := filepath.Abs(kubeplan)
	if err != nil {
		return nil, err
	}
	c, err := testkube.Launch()
	if err != nil {
		return nil, err
	}
	defer c.Stop()
	kc := c.AdminKubeconfig()
	work, err := os.MkdirTemp("", "commentshot-repo-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	// Secrets in git are an error by default (plaintext-secret); this demo
	// repository keeps one to show that plans mask its values.
	if err := os.WriteFile(filepath.Join(work, "kubeplan.yaml"), []byte("rules:\n  plaintext-secret: off\n"), 0o644); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "KUBECONFIG="+kc, "KUBEPLAN_CACHE_DIR="+filepath.Join(work, ".cache"), "GITHUB_ACTIONS=", "NO_COLOR=1")
	kubectl := func(args ...string) error {
		cmd := exec.Command("kubectl", args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("kubectl %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	kp := func(args ...string) ([]byte, error) {
		cmd := exec.Command(kubeplan, append(args, "-n", namespace, "--applyset", applyset, "manifests")...)
		cmd.Dir, cmd.Env = work, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("kubeplan %s: %w\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
		}
		return out, nil
	}

	if err := kubectl("create", "namespace", namespace); err != nil {
		return nil, err
	}
	if err := writeManifests(work, first()); err != nil {
		return nil, err
	}
	if _, err := kp("apply", "--timeout", "2m"); err != nil {
		return nil, err
	}
	// A hand edit: the drift the plan takes back.
	if err := kubectl("-n", namespace, "scale", "deployment", "web", "--replicas=6"); err != nil {
		return nil, err
	}
	if err := writeManifests(work, second()); err != nil {
		return nil, err
	}
	return kp("plan", "--output", "markdown")
}

// writeManifests makes dir/manifests hold exactly files.
func writeManifests(dir string, files map[string]string) error {
	m := filepath.Join(dir, "manifests")
	if err := os.RemoveAll(m); err != nil {
		return err
	}
	if err := os.MkdirAll(m, 0o755); err != nil {
		return err
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(m, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}
