package main

// The kustomize flavour (seed 003): a base planned and applied from its
// kustomization directory, then a change on a topic branch planned from the
// branch and applied from git after its merge. It runs on the same cluster
// after the seed story, as the same identity, in namespace demo.

const (
	kustomizeApplySet = "configmap/my-app"
	kustomizePlan     = "kubeplan plan -n demo --applyset " + kustomizeApplySet + " base/"
)

// kustomizeFromGit runs verb (plan or apply) on branch ref of the
// repository's base directory.
func kustomizeFromGit(verb, ref string) string {
	return "kubeplan " + verb + " -n demo --applyset " + kustomizeApplySet + " --source ../apps.git --ref " + ref + " --path base"
}

const kustomization = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: demo
resources:
- deployment.yaml
`

const myApp = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-app
spec:
  replicas: 1
  selector:
    matchLabels:
      app: my-app
  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: my-app
        image: nginx:1.30
`

var kustomizeStory = story{
	title: "Story 2: the kustomize flavour",
	intro: []string{
		"A kustomize base for namespace demo, planned and applied from its directory; then a change on a",
		"topic branch, planned from the branch and applied from git after the merge. Same cluster, same",
		"identity, back in the work directory.",
	},
	steps: []step{
		{
			title: "Namespace demo, which gitops-reconciler may edit too",
			do: []action{
				run("kubectl create namespace demo", "namespace/demo created"),
				run("kubectl -n demo create rolebinding gitops-reconciler --clusterrole=edit --user=gitops-reconciler"),
			},
			check: check{"gitops-reconciler may create deployments in demo", all(may(reconciler, true, "create", "apps/deployments", "demo"), serviceAccount("demo"))},
		},
		{
			title: "A repository with a kustomize base: kustomization.yaml and Deployment my-app",
			do: []action{
				run("git init -q --bare apps.git"),
				run("git clone -q apps.git apps"),
				cd("apps"),
				write("base/kustomization.yaml", "namespace demo, resources: deployment.yaml", kustomization),
				write("base/deployment.yaml", "Deployment my-app: 1 replica", myApp),
				run("git add base"),
				run(`git commit -q -m "my-app: kustomize base"`),
				run("git push -q origin main"),
			},
			check: check{"origin/main holds the base; my-app does not exist yet", all(pushed("main"), absent(deployments, "demo", "my-app"))},
		},
		{
			title: "Lint and plan the kustomization directory",
			do: []action{
				run("kubeplan lint base/", "0 errors, 0 warnings in 1 file (1 object)"),
				run(kustomizePlan, "+ create deployment.apps/my-app (base/deployment.yaml:1:1)", "namespace: demo", "Plan: 1 to add, 0 to change, 0 to prune, 0 unchanged."),
			},
			check: check{"nothing was written to the cluster", all(absent(deployments, "demo", "my-app"), absent(configmaps, "demo", "my-app"))},
		},
		{
			title: "Apply the kustomization directory",
			do:    []action{run("kubeplan apply -n demo --applyset "+kustomizeApplySet+" base/", "deployment.apps/my-app created", "Apply: 1 created, 0 configured, 0 pruned, 0 unchanged.")},
			check: check{"deployment my-app: 1/1 ready in namespace demo", deployment("demo", "my-app", 1)},
		},
		{
			title: "A topic branch sets replicas: 4; plan it from the branch, before any merge",
			do: []action{
				run("git checkout -q -b topic"),
				edit("base/deployment.yaml", "replicas: 1", "replicas: 4"),
				run(`git commit -q -am "my-app: 4 replicas"`),
				run("git push -q origin topic"),
				run(kustomizePlan, "-  replicas: 1", "+  replicas: 4", "Plan: 0 to add, 1 to change, 0 to prune, 0 unchanged."),
				run(kustomizeFromGit("plan", "topic"), "-  replicas: 1", "+  replicas: 4", "Plan: 0 to add, 1 to change, 0 to prune, 0 unchanged."),
			},
			check: check{"my-app still runs 1/1: planning wrote nothing", deployment("demo", "my-app", 1)},
		},
		{
			title: "Merge the topic branch, and apply main from git",
			do: []action{
				run("git checkout -q main"),
				run("git merge -q --no-ff --no-edit topic"),
				run("git push -q origin main"),
				run(kustomizeFromGit("apply", "main"), "deployment.apps/my-app configured", "Apply: 0 created, 1 configured, 0 pruned, 0 unchanged.", "in sync with {head} Merge branch 'topic'"),
			},
			check: check{"deployment my-app: 4/4 ready; the ApplySet records the merge", all(pushed("main"), deployment("demo", "my-app", 4), recorded("demo", "my-app"))},
		},
	},
}

// stories are what the demo runs, in order.
var stories = []story{seedStory, kustomizeStory}
