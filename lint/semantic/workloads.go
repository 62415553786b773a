package semantic

import (
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// checkDeployment: strategy, selector, pod template.
func checkDeployment(s *sem) {
	s.replicasLike(p("spec"), "replicas", "minReadySeconds", "revisionHistoryLimit", "progressDeadlineSeconds")
	st := p("spec", "strategy")
	s.enum(s.at(st, "type"), "Recreate", "RollingUpdate")
	if t, _ := s.str(s.at(st, "type")); t == "Recreate" && s.has(s.at(st, "rollingUpdate")) {
		s.bad(s.at(st, "rollingUpdate"), "Forbidden: may not be specified when strategy `type` is 'Recreate'; remove it or use RollingUpdate")
	}
	surge, sOK := s.intOrPercent(s.at(st, "rollingUpdate", "maxSurge"), false)
	unavail, uOK := s.intOrPercent(s.at(st, "rollingUpdate", "maxUnavailable"), true)
	if sOK && uOK && surge == 0 && unavail == 0 {
		s.bad(s.at(st, "rollingUpdate", "maxUnavailable"), "Invalid value: may not be 0 when `maxSurge` is 0; the rollout could never progress")
	}
	s.workload(restartAlways, "deployment")
}

// checkReplicaSet: selector and pod template.
func checkReplicaSet(s *sem) {
	s.replicasLike(p("spec"), "replicas", "minReadySeconds")
	s.workload(restartAlways, "replicaset")
}

// checkReplicationController: its selector is a plain label map.
func checkReplicationController(s *sem) {
	s.replicasLike(p("spec"), "replicas", "minReadySeconds")
	s.labelMap(p("spec", "selector"))
	s.podTemplate(p("spec", "template"), restartAlways)
}

// checkDaemonSet: update strategy, selector, pod template.
func checkDaemonSet(s *sem) {
	s.replicasLike(p("spec"), "minReadySeconds", "revisionHistoryLimit")
	us := p("spec", "updateStrategy")
	s.enum(s.at(us, "type"), "RollingUpdate", "OnDelete")
	s.intOrPercent(s.at(us, "rollingUpdate", "maxUnavailable"), true)
	s.intOrPercent(s.at(us, "rollingUpdate", "maxSurge"), false)
	s.workload(restartAlways, "daemonset")
}

// checkStatefulSet: policies, claim templates, selector, pod template.
func checkStatefulSet(s *sem) {
	s.replicasLike(p("spec"), "replicas", "minReadySeconds", "revisionHistoryLimit")
	s.enum(p("spec", "podManagementPolicy"), "OrderedReady", "Parallel")
	us := p("spec", "updateStrategy")
	s.enum(s.at(us, "type"), "RollingUpdate", "OnDelete")
	if n, ok := s.num(s.at(us, "rollingUpdate", "partition")); ok && n < 0 {
		s.bad(s.at(us, "rollingUpdate", "partition"), "Invalid value: %d: must be greater than or equal to 0", n)
	}
	s.intOrPercent(s.at(us, "rollingUpdate", "maxUnavailable"), true)
	if name, ok := s.str(p("spec", "serviceName")); ok && name != "" {
		s.msgs(p("spec", "serviceName"), name, DNS1123Label(name))
	}
	rp := p("spec", "persistentVolumeClaimRetentionPolicy")
	s.enum(s.at(rp, "whenDeleted"), "Retain", "Delete")
	s.enum(s.at(rp, "whenScaled"), "Retain", "Delete")
	s.claims = map[string]bool{}
	s.items(p("spec", "volumeClaimTemplates"), func(c []string, m map[string]any) {
		name, _ := s.str(s.at(c, "metadata", "name"))
		if name == "" {
			s.required(s.at(c, "metadata", "name"), "name the claim template; pods mount it by this name")
		} else {
			s.msgs(s.at(c, "metadata", "name"), name, DNS1123Subdomain(name))
			s.claims[name] = true
		}
		s.labelMap(s.at(c, "metadata", "labels"))
		s.pvcSpec(s.at(c, "spec"))
	})
	s.workload(restartAlways, "statefulset")
}

// workload checks spec.selector against spec.template and the template.
func (s *sem) workload(r restart, kind string) {
	s.selectorMatchesTemplate(p("spec", "selector"), p("spec", "template"), kind)
	s.podTemplate(p("spec", "template"), r)
}

// job checks a Job's spec at prefix (nil for a Job, the jobTemplate of a
// CronJob).
func (s *sem) job(prefix []string) {
	spec := s.at(prefix, "spec")
	s.replicasLike(spec, "parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished")
	s.enum(s.at(spec, "completionMode"), "NonIndexed", "Indexed")
	s.enum(s.at(spec, "podReplacementPolicy"), "TerminatingOrFailed", "Failed")
	s.labelMap(s.at(prefix, "metadata", "labels"))
	s.annotations(s.at(prefix, "metadata", "annotations"))
	manual, _ := s.get(s.at(spec, "manualSelector")).(bool)
	if name := s.o.Name; prefix == nil && !manual && len(name) > validation.LabelValueMaxLength {
		s.bad(p("metadata", "name"), "Invalid value: must be no more than %d characters: the Job's pods get its name as the label batch.kubernetes.io/job-name", validation.LabelValueMaxLength)
	}
	if manual {
		s.selectorMatchesTemplate(s.at(spec, "selector"), s.at(spec, "template"), "job")
	} else if s.has(s.at(spec, "selector")) {
		s.labelSelector(s.at(spec, "selector"))
	}
	s.podTemplate(s.at(spec, "template"), restartJob)
}

// checkCronJob: schedule, policy, the Job template.
func checkCronJob(s *sem) {
	s.enum(p("spec", "concurrencyPolicy"), "Allow", "Forbid", "Replace")
	s.replicasLike(p("spec"), "startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
	if sched, ok := s.str(p("spec", "schedule")); ok {
		if msg := cronSchedule(sched); msg != "" {
			s.bad(p("spec", "schedule"), "Invalid value: %q: %s", sched, msg)
		}
	}
	s.job(p("spec", "jobTemplate"))
}

// cronSchedule explains why a schedule is not one the CronJob controller
// parses, or returns "". It accepts five fields (each *, ?, numbers,
// ranges, steps, lists, month and weekday names) and the @ macros.
func cronSchedule(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "empty schedule; write five fields such as \"30 2 * * *\""
	}
	if strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=") {
		return "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
	}
	if strings.HasPrefix(s, "@") {
		switch s {
		case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
			return ""
		}
		if strings.HasPrefix(s, "@every ") {
			return ""
		}
		return "unrecognized descriptor; use @yearly, @monthly, @weekly, @daily or @hourly"
	}
	if len(strings.Fields(s)) != 5 {
		return "expected exactly 5 fields (minute hour day-of-month month day-of-week)"
	}
	for _, f := range strings.Fields(s) {
		if !cronField.MatchString(f) {
			return "field " + strconv.Quote(f) + " is not a cron field"
		}
	}
	return ""
}

var cronField = regexp.MustCompile(`^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(/[0-9]+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(/[0-9]+)?)*$`)

// replicasLike reports negative integers in the named fields of spec.
func (s *sem) replicasLike(spec []string, fields ...string) {
	for _, f := range fields {
		if n, ok := s.num(s.at(spec, f)); ok && n < 0 {
			s.bad(s.at(spec, f), "Invalid value: %d: must be greater than or equal to 0", n)
		}
	}
}

var percent = regexp.MustCompile(`^[0-9]+%$`)

// intOrPercent checks an int-or-string field that holds a count or a
// percentage ("25%"): not negative, a percentage at most 100% when
// capped. It returns the value when it is a valid number or percentage.
func (s *sem) intOrPercent(path []string, capped bool) (int64, bool) {
	switch v := s.get(path).(type) {
	case string:
		if !percent.MatchString(v) {
			s.bad(path, "Invalid value: %q: a valid percent string must be a numeric string followed by an ending '%%' (e.g. '1%%' or '93%%'), or use a number", v)
			return 0, false
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(v, "%"), 10, 64)
		if capped && n > 100 {
			s.bad(path, "Invalid value: %q: must not be greater than 100%%", v)
		}
		return n, true
	default:
		n, ok := asInt(v)
		if ok && n < 0 {
			s.bad(path, "Invalid value: %d: must be greater than or equal to 0", n)
			return n, false
		}
		return n, ok
	}
}
