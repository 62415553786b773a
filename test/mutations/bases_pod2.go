package mutations

// podSpec2 is a second pod for the workload bases: one container with a
// gRPC probe, lifecycle hook, a claim, downward API and projected volumes,
// spread constraints and pull secrets.
const podSpec2 = `restartPolicy: RESTART
enableServiceLinks: false
imagePullSecrets:
- name: registry
nodeSelector: {kubernetes.io/os: linux}
topologySpreadConstraints:
- maxSkew: 1
  topologyKey: topology.kubernetes.io/zone
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels: {team: shop}
containers:
- name: api
  image: registry.example.com/shop/api@sha256:4f7d7bd3c6f0e1a5c6a4c2e0b2d1f8e9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2
  command: [/api]
  workingDir: /srv
  ports:
  - {name: grpc, containerPort: 50051, protocol: TCP}
  - {name: dns, containerPort: 5353, protocol: UDP}
  env:
  - name: GOMAXPROCS
    valueFrom:
      resourceFieldRef: {resource: limits.cpu, divisor: "1"}
  - name: REGION
    valueFrom:
      configMapKeyRef: {name: region, key: name, optional: true}
  resources:
    requests: {cpu: 500m, memory: 1Gi, ephemeral-storage: 2Gi}
    limits: {cpu: "2", memory: 2Gi, ephemeral-storage: 4Gi}
  readinessProbe:
    grpc: {port: 50051}
    periodSeconds: 5
  livenessProbe:
    httpGet:
      path: /live
      port: 8081
      httpHeaders:
      - {name: X-Probe, value: liveness}
  lifecycle:
    preStop:
      exec: {command: [/bin/sh, -c, sleep 5]}
  volumeMounts:
  - {name: data, mountPath: /srv/data}
  - {name: podinfo, mountPath: /etc/podinfo}
  - {name: bundle, mountPath: /etc/bundle, readOnly: true}
volumes:
- name: data
  persistentVolumeClaim: {claimName: uploads}
- name: podinfo
  downwardAPI:
    items:
    - path: labels
      fieldRef: {fieldPath: metadata.labels}
- name: bundle
  projected:
    sources:
    - configMap: {name: web-settings}
    - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: shop}
`
