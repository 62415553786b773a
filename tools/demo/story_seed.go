package main

// The seed's GitOps story: git is the source of truth for namespace store,
// and a reconciler identity that may only edit store applies it.

const (
	seedApplySet = "configmap/gitops-applyset"
	seedPlan     = "kubeplan plan -n store --applyset " + seedApplySet + " manifests/"
	seedApply    = "kubeplan apply -n store --applyset " + seedApplySet + " --source ../shop.git --ref main --path manifests"
	seedStatus   = "kubeplan status -n store --applyset " + seedApplySet
)

const seedDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: store
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.30
        ports:
        - containerPort: 80
`

const seedService = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: store
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`

const seedSettings = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: store
data:
  currency: EUR
`

// typoFinding is what lint, plan and apply say about the replicas typo.
const typoFinding = `manifests/deployment.yaml:7:13: error schema: spec.replicas must be an integer, not the string "three"`

// nothingInStore: lint and plan wrote nothing, not even the ApplySet parent.
var nothingInStore = all(
	absent(deployments, "store", "web"), absent(services, "store", "web"),
	absent(configmaps, "store", "settings"), absent(configmaps, "store", "gitops-applyset"))

var seedStory = story{
	title: "Story 1: the seed GitOps walkthrough",
	intro: []string{
		"Git is the source of truth for namespace store. kubeplan runs as gitops-reconciler, an identity",
		"that may only edit store (KUBECONFIG=cluster/gitops-reconciler.kubeconfig); kubectl runs as the",
		"cluster admin (KUBECONFIG=cluster/admin.kubeconfig), playing the human who edits by hand.",
		"Commands run in a temporary work directory, which the demo removes at the end.",
	},
	steps: []step{
		{
			title: "Start a local cluster: kube-apiserver, etcd, controllers and a simulated node (bin/testcluster)",
			do:    []action{{kind: startAction}},
			check: check{"the node is Ready", nodeReady},
		},
		{
			title: "Mint the reconciler identity, bound to the ClusterRole edit in namespace store only",
			do: []action{
				run("kubectl create namespace store", "namespace/store created"),
				run("testcluster user --dir cluster --name gitops-reconciler", "gitops-reconciler.kubeconfig"),
				run("kubectl -n store create rolebinding gitops-reconciler --clusterrole=edit --user=gitops-reconciler"),
			},
			check: check{"gitops-reconciler may create deployments in store, not in default",
				all(may(reconciler, true, "create", "apps/deployments", "store"), may(reconciler, false, "create", "apps/deployments", "default"), serviceAccount("store"))},
		},
		{
			title: "A bare repository (the remote) and a clone with the seed's three manifests",
			do: []action{
				run("git init -q --bare shop.git"),
				run("git clone -q shop.git shop"),
				cd("shop"),
				write("manifests/deployment.yaml", "Deployment web: 2 replicas of nginx:1.30", seedDeployment),
				write("manifests/service.yaml", "Service web", seedService),
				write("manifests/configmap.yaml", "ConfigMap settings: currency EUR", seedSettings),
				run("git add manifests"),
				run(`git commit -q -m "seed: web, its service and settings"`),
				run("git push -q origin main"),
			},
			check: check{"origin/main holds the seed; namespace store holds none of it yet", all(pushed("main"), nothingInStore)},
		},
		{
			title: "Lint: offline, before anything reaches the cluster",
			do:    []action{run("kubeplan lint manifests/", "0 errors, 0 warnings in 3 files (3 objects)")},
			check: check{"nothing was written to the cluster", nothingInStore},
		},
		{
			title: "Plan: a server-side dry-run of every object, diffed against the cluster",
			do:    []action{run(seedPlan, "+ create deployment.apps/web (manifests/deployment.yaml:1:1)", "Plan: 3 to add, 0 to change, 0 to prune, 0 unchanged.")},
			check: check{"nothing was written to the cluster", nothingInStore},
		},
		{
			title: "Apply from git, the reconciler's command: it waits until web is ready",
			do: []action{run(seedApply, "configmap/settings created", "deployment.apps/web created", "service/web created",
				"Apply: 3 created, 0 configured, 0 pruned, 0 unchanged.", "in sync with {head} seed: web, its service and settings")},
			check: check{"deployment web: 2/2 ready; service web; settings has currency EUR; the ApplySet records the commit",
				all(deployment("store", "web", 2), present(services, "store", "web"), configData("store", "settings", "currency", "EUR"), recorded("store", "gitops-applyset"))},
		},
		{
			title: "Change by commit: 3 replicas, planned before it is applied",
			do: []action{
				edit("manifests/deployment.yaml", "replicas: 2", "replicas: 3"),
				run(`git commit -q -am "web: 3 replicas"`),
				run("git push -q"),
				run(seedPlan, "-  replicas: 2", "+  replicas: 3", "Plan: 0 to add, 1 to change, 0 to prune, 2 unchanged."),
			},
			check: check{"deployment web still runs 2/2: plan changed nothing", deployment("store", "web", 2)},
		},
		{
			title: "Apply the commit",
			do:    []action{run(seedApply, "deployment.apps/web configured", "Apply: 0 created, 1 configured, 0 pruned, 2 unchanged.", "in sync with {head} web: 3 replicas")},
			check: check{"deployment web: 3/3 ready", all(deployment("store", "web", 3), recorded("store", "gitops-applyset"))},
		},
		{
			title: "Drift: someone scales web by hand, deletes its Service and creates made-by-hand",
			do: []action{
				run("kubectl -n store scale deployment web --replicas=6", "deployment.apps/web scaled"),
				run("kubectl -n store delete service web", `service "web" deleted`),
				run("kubectl -n store create configmap made-by-hand --from-literal=owner=me", "configmap/made-by-hand created"),
			},
			check: check{"web wants 6 replicas, service web is gone, made-by-hand exists",
				all(specReplicas("store", "web", 6), absent(services, "store", "web"), present(configmaps, "store", "made-by-hand"))},
		},
		{
			title: "Plan shows the drift",
			do: []action{run(seedPlan, "+ create service/web (manifests/service.yaml:1:1)", "-  replicas: 6", "+  replicas: 3",
				"deployment.apps/web spec.replicas is 6, set by kubectl; git says 3", "Plan: 1 to add, 1 to change, 0 to prune, 1 unchanged.").without("made-by-hand")},
			check: check{"the drift is still there: plan changed nothing", all(specReplicas("store", "web", 6), absent(services, "store", "web"))},
		},
		{
			title: "Apply repairs it; made-by-hand is not in git's set, so it stays",
			do:    []action{run(seedApply, "service/web created", "deployment.apps/web configured", "Apply: 1 created, 1 configured, 0 pruned, 1 unchanged.").without("made-by-hand")},
			check: check{"deployment web: 3/3 ready; service web is back; made-by-hand survives, in no ApplySet",
				all(deployment("store", "web", 3), present(services, "store", "web"), unlabelled(configmaps, "store", "made-by-hand"))},
		},
		{
			title: "Delete by deleting the file: git rm settings, and plan shows one prune",
			do: []action{
				run("git rm -q manifests/configmap.yaml"),
				run(`git commit -q -m "drop settings"`),
				run("git push -q"),
				run(seedPlan, "- prune configmap/settings", "Plan: 0 to add, 0 to change, 1 to prune, 2 unchanged.").without("made-by-hand"),
			},
			check: check{"settings still exists: plan changed nothing", present(configmaps, "store", "settings")},
		},
		{
			title: "Apply prunes settings, and only settings",
			do:    []action{run(seedApply, "configmap/settings pruned", "Apply: 0 created, 0 configured, 1 pruned, 2 unchanged.", "in sync with {head} drop settings")},
			check: check{"settings is gone; made-by-hand and web are untouched",
				all(absent(configmaps, "store", "settings"), present(configmaps, "store", "made-by-hand"), deployment("store", "web", 3))},
		},
		{
			title: "Roll back with git revert",
			do: []action{
				run("git revert --no-edit HEAD", `Revert "drop settings"`),
				run("git push -q"),
				run(seedApply, "configmap/settings created", `in sync with {head} Revert "drop settings"`),
			},
			check: check{"settings is back with currency EUR",
				all(configData("store", "settings", "currency", "EUR"), recorded("store", "gitops-applyset"),
					remember("web", deployments, "store", "web"), remember("parent", configmaps, "store", "gitops-applyset"))},
		},
		{
			title: "A broken commit: replicas: three. Lint and plan point at the line",
			do: []action{
				edit("manifests/deployment.yaml", "replicas: 3", "replicas: three"),
				run(`git commit -q -am "web: three replicas"`),
				run("git push -q"),
				fails(1, "kubeplan lint manifests/", typoFinding, "1 error, 0 warnings in 3 files (3 objects)"),
				fails(1, seedPlan, typoFinding, "nothing was sent to the cluster"),
			},
			check: check{"nothing was written", all(unchanged("web", deployments, "store", "web"), unchanged("parent", configmaps, "store", "gitops-applyset"))},
		},
		{
			title: "The reconciler meets the broken commit: apply writes nothing, 3 replicas keep running",
			do: []action{
				fails(1, seedApply, typoFinding, "nothing was sent to the cluster").without("configured"),
				run(seedStatus, "Result:    failed", "Error:     lint found 1 error(s); nothing was sent to the cluster"),
			},
			check: check{"deployment web was not written, the ApplySet records the failed run; web: 3/3 ready",
				all(unchanged("web", deployments, "store", "web"), failedRun("store", "gitops-applyset", "lint found 1 error(s)"), deployment("store", "web", 3))},
		},
		{
			title: "Revert the broken commit: in sync again",
			do: []action{
				run("git revert --no-edit HEAD", `Revert "web: three replicas"`),
				run("git push -q"),
				run(seedApply, "Apply: 0 created, 0 configured, 0 pruned, 3 unchanged.", `in sync with {head} Revert "web: three replicas"`),
			},
			check: check{"the ApplySet records the revert as applied, result ok; web: 3/3 ready",
				all(recorded("store", "gitops-applyset"), deployment("store", "web", 3), remember("parent", configmaps, "store", "gitops-applyset"))},
		},
		{
			title: "Status: what the cluster runs",
			do: []action{run(seedStatus, "Revision:  {HEAD}", "Result:    ok", "Members:   3",
				"deployment.apps/web  Current", "configmap/settings   Current", "service/web          Current")},
			check: check{"status wrote nothing", unchanged("parent", configmaps, "store", "gitops-applyset")},
		},
	},
}
