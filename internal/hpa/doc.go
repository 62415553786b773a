// Package hpa knows which workloads a HorizontalPodAutoscaler scales, for
// the lint rule hpa-replicas and for plan, which leaves the replicas of
// such a workload to the autoscaler.
//
// It reads only the objects it is given, never the cluster, and decides
// nothing: the rule and the plan do.
package hpa
