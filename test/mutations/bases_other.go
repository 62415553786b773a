package mutations

// otherBases are the common kinds that do not hold a pod.
var otherBases = []string{`apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {app.kubernetes.io/name: web}
spec:
  type: NodePort
  selector: {app.kubernetes.io/name: web}
  sessionAffinity: ClientIP
  externalTrafficPolicy: Local
  internalTrafficPolicy: Cluster
  ipFamilyPolicy: SingleStack
  ports:
  - name: http
    port: 80
    targetPort: http
    protocol: TCP
  - name: metrics
    port: 9090
    targetPort: 9090
    nodePort: 30090
`, `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-settings
  labels: {app: web}
data:
  app.properties: |
    currency=EUR
    greeting=hello
  LOG_LEVEL: info
  feature.flags.json: '{"beta": true}'
binaryData:
  logo.png: iVBORw0KGgo=
`, `apiVersion: v1
kind: Secret
metadata:
  name: db
  labels: {app: db}
type: Opaque
data:
  password: aHVudGVyMg==
stringData:
  user: shop
`, `apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
  labels: {app: web}
  annotations: {example.com/role: frontend}
automountServiceAccountToken: false
imagePullSecrets:
- name: registry
`, `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations: {nginx.ingress.kubernetes.io/proxy-body-size: 8m}
spec:
  ingressClassName: nginx
  tls:
  - hosts: [shop.example.com]
    secretName: shop-tls
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port: {number: 80}
      - path: /metrics
        pathType: Exact
        backend:
          service:
            name: web
            port: {name: metrics}
`, `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels: {app.kubernetes.io/name: web}
  policyTypes: [Ingress, Egress]
  ingress:
  - from:
    - podSelector:
        matchLabels: {app: gateway}
    - namespaceSelector:
        matchExpressions:
        - {key: team, operator: In, values: [shop, platform]}
    ports:
    - {protocol: TCP, port: 8080}
  egress:
  - to:
    - ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}
    ports:
    - {protocol: UDP, port: 53}
    - {protocol: TCP, port: 5432, endPort: 5440}
`, `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: web-reader
rules:
- apiGroups: [""]
  resources: [configmaps, secrets]
  verbs: [get, list, watch]
  resourceNames: [web-settings]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get]
`, `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: web-reader
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: web-reader
subjects:
- kind: ServiceAccount
  name: web
- kind: User
  apiGroup: rbac.authorization.k8s.io
  name: jane@example.com
`, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: mutations:node-reader
rules:
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list]
- nonResourceURLs: [/healthz, /metrics]
  verbs: [get]
`, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: mutations:node-reader
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: mutations:node-reader
subjects:
- kind: Group
  apiGroup: rbac.authorization.k8s.io
  name: system:nodes
- kind: ServiceAccount
  name: agent
  namespace: kube-system
`, `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: uploads
spec:
  accessModes: [ReadWriteOnce]
  volumeMode: Filesystem
  storageClassName: standard
  resources:
    requests: {storage: 20Gi}
    limits: {storage: 50Gi}
`, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 70}
  - type: Resource
    resource:
      name: memory
      target: {type: AverageValue, averageValue: 400Mi}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      selectPolicy: Max
      policies:
      - {type: Percent, value: 50, periodSeconds: 60}
`, `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 2
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels: {app.kubernetes.io/name: web}
`, `apiVersion: v1
kind: Namespace
metadata:
  name: mutations-shop
  labels: {team: shop, pod-security.kubernetes.io/enforce: baseline}
`}
