package mutations

// podSpec is the pod of the workload bases: two containers and an init
// container with probes, resources, env, ports and volumes, as real
// Deployments have. INDENT is replaced per workload.
const podSpec = `serviceAccountName: default
restartPolicy: RESTART
dnsPolicy: ClusterFirst
terminationGracePeriodSeconds: 30
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  fsGroup: 10001
tolerations:
- key: dedicated
  operator: Equal
  value: shop
  effect: NoSchedule
initContainers:
- name: migrate
  image: registry.example.com/shop/migrate:1.4.2
  imagePullPolicy: IfNotPresent
  command: ["/migrate", "--up"]
  env:
  - name: DB_HOST
    value: db.shop.svc
  resources:
    requests: {cpu: 50m, memory: 64Mi}
    limits: {cpu: 200m, memory: 128Mi}
containers:
- name: web
  image: registry.example.com/shop/web:2.1.0
  imagePullPolicy: Always
  args: ["--listen=:8080"]
  ports:
  - name: http
    containerPort: 8080
    protocol: TCP
  - name: metrics
    containerPort: 9090
    protocol: TCP
  env:
  - name: LOG_LEVEL
    value: info
  - name: POD_NAME
    valueFrom:
      fieldRef: {fieldPath: metadata.name}
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef: {name: db, key: password}
  envFrom:
  - configMapRef: {name: web-settings}
  resources:
    requests: {cpu: 250m, memory: 256Mi}
    limits: {cpu: "1", memory: 512Mi}
  readinessProbe:
    httpGet: {path: /healthz, port: http}
    initialDelaySeconds: 5
    periodSeconds: 10
  livenessProbe:
    tcpSocket: {port: 8080}
    periodSeconds: 20
    failureThreshold: 3
  startupProbe:
    httpGet: {path: /healthz, port: 8080, scheme: HTTP}
    failureThreshold: 30
  volumeMounts:
  - name: config
    mountPath: /etc/web
    readOnly: true
  - name: cache
    mountPath: /var/cache/web
  terminationMessagePolicy: FallbackToLogsOnError
  securityContext:
    allowPrivilegeEscalation: false
    readOnlyRootFilesystem: true
    capabilities: {drop: [ALL]}
- name: proxy
  image: registry.example.com/shop/proxy:0.9.1
  ports:
  - name: https
    containerPort: 8443
  resources:
    requests: {cpu: 100m, memory: 64Mi}
    limits: {memory: 128Mi}
  livenessProbe:
    exec: {command: [/bin/check]}
    timeoutSeconds: 2
  volumeMounts:
  - name: tls
    mountPath: /etc/tls
    readOnly: true
volumes:
- name: config
  configMap:
    name: web-settings
    items:
    - {key: app.properties, path: app.properties}
- name: tls
  secret:
    secretName: web-tls
    defaultMode: 0400
- name: cache
  emptyDir:
    sizeLimit: 1Gi
`

// workloadBases are the controllers of pods.
var workloadBases = []string{`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app.kubernetes.io/name: web, app.kubernetes.io/part-of: shop}
  annotations: {example.com/owner: team-shop}
spec:
  replicas: 3
  revisionHistoryLimit: 5
  selector:
    matchLabels: {app.kubernetes.io/name: web}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}
  template:
    metadata:
      labels: {app.kubernetes.io/name: web, tier: frontend}
      annotations: {prometheus.io/scrape: "true"}
    spec:
POD`, `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  labels: {app: db}
spec:
  serviceName: db
  replicas: 3
  podManagementPolicy: Parallel
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {partition: 0}
  selector:
    matchLabels: {app: db}
    matchExpressions:
    - {key: tier, operator: In, values: [backend]}
  template:
    metadata:
      labels: {app: db, tier: backend}
    spec:
POD
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests: {storage: 10Gi}
`, `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
spec:
  selector:
    matchLabels: {app: node-agent}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 1}
  template:
    metadata:
      labels: {app: node-agent}
    spec:
POD`, `apiVersion: batch/v1
kind: Job
metadata:
  name: report
spec:
  backoffLimit: 4
  completions: 1
  parallelism: 1
  ttlSecondsAfterFinished: 600
  template:
    metadata:
      labels: {app: report}
    spec:
POD`, `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "30 2 * * *"
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        metadata:
          labels: {app: nightly}
        spec:
POD`, `apiVersion: v1
kind: Pod
metadata:
  name: debug
  labels: {app: debug}
spec:
POD`}
