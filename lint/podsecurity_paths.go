package lint

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/pod-security-admission/policy"

	"github.com/kubeplan/kubeplan/manifest"
)

// The checks say what is wrong but not where: violationPath finds the
// field a check's reason is about, in the containers its detail names
// first, then in the pod spec. A finding lands on the pod spec when no
// field is found (a field the check requires and the template lacks).

// reasonFields are, for each check's ForbiddenReason, the fields to look
// for: under a container and under the pod spec, most precise first. A
// "*" steps into each item of a list.
var reasonFields = map[string]struct{ container, pod [][]string }{
	"privileged":                        {container: [][]string{{"securityContext", "privileged"}}},
	"hostPath volumes":                  {pod: [][]string{{"volumes", "*", "hostPath"}}},
	"hostPort":                          {container: [][]string{{"ports", "*", "hostPort"}}},
	"hostProcess":                       {container: [][]string{{"securityContext", "windowsOptions", "hostProcess"}}, pod: [][]string{{"securityContext", "windowsOptions", "hostProcess"}}},
	"allowPrivilegeEscalation != false": {container: [][]string{{"securityContext", "allowPrivilegeEscalation"}, {"securityContext"}}},
	"unrestricted capabilities":         {container: [][]string{{"securityContext", "capabilities", "drop"}, {"securityContext", "capabilities"}, {"securityContext"}}},
	"non-default capabilities":          {container: [][]string{{"securityContext", "capabilities", "add"}}},
	"seccompProfile":                    {container: [][]string{{"securityContext", "seccompProfile", "type"}}, pod: [][]string{{"securityContext", "seccompProfile", "type"}, {"securityContext"}}},
	"runAsNonRoot != true":              {container: [][]string{{"securityContext", "runAsNonRoot"}}, pod: [][]string{{"securityContext", "runAsNonRoot"}, {"securityContext"}}},
	"runAsUser=0":                       {container: [][]string{{"securityContext", "runAsUser"}}, pod: [][]string{{"securityContext", "runAsUser"}}},
	"forbidden sysctls":                 {pod: [][]string{{"securityContext", "sysctls"}}},
	"procMount":                         {container: [][]string{{"securityContext", "procMount"}}},
	"seLinuxOptions":                    {container: [][]string{{"securityContext", "seLinuxOptions"}}, pod: [][]string{{"securityContext", "seLinuxOptions"}}},
	"forbidden AppArmor profile":        {container: [][]string{{"securityContext", "appArmorProfile"}}, pod: [][]string{{"securityContext", "appArmorProfile"}}},
	"probe or lifecycle host":           {container: [][]string{{"livenessProbe"}, {"readinessProbe"}, {"startupProbe"}, {"lifecycle"}}},
}

// quotedName are the names a check's detail quotes: containers, volumes.
var quotedName = regexp.MustCompile(`"([^"]*)"`)

// violationPath is the path of the field res is about in o, whose pod
// template is at tmpl.
func violationPath(o *manifest.Object, tmpl [2][]string, res policy.CheckResult) []string {
	spec := tmpl[1]
	reason := res.ForbiddenReason
	if strings.HasPrefix(reason, "forbidden AppArmor profile") {
		reason = "forbidden AppArmor profile"
	}
	fields, known := reasonFields[reason]
	var names []string
	for _, m := range quotedName.FindAllStringSubmatch(res.ForbiddenDetail, -1) {
		names = append(names, m[1])
	}
	// The containers the detail names, in the order they appear.
	var containers [][]string
	for _, cf := range containerFields {
		v, _ := o.Get(append(slices.Clip(spec), cf)...)
		list, _ := v.([]any)
		for i, c := range list {
			m, _ := c.(map[string]any)
			if name, _ := m["name"].(string); slices.Contains(names, name) {
				containers = append(containers, slices.Concat(spec, []string{cf, strconv.Itoa(i)}))
			}
		}
	}
	if reason == "host namespaces" {
		for _, k := range []string{"hostNetwork", "hostPID", "hostIPC"} {
			if v, _ := o.Get(append(slices.Clip(spec), k)...); v == true {
				return append(slices.Clip(spec), k)
			}
		}
	}
	if reason == "forbidden AppArmor profile" {
		// The annotations of old clusters before the fields.
		md := append(slices.Clip(tmpl[0]), "annotations")
		v, _ := o.Get(md...)
		ann, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(ann)) {
			if strings.HasPrefix(k, "container.apparmor.security.beta.kubernetes.io/") && strings.Contains(res.ForbiddenDetail, k) {
				return append(md, k)
			}
		}
	}
	if known {
		for _, c := range containers {
			for _, f := range fields.container {
				if p := firstPath(o, c, f); p != nil {
					return p
				}
			}
		}
		for _, f := range fields.pod {
			if p := firstPath(o, spec, f); p != nil {
				return p
			}
		}
	}
	if reason == "restricted volume types" || reason == "hostPath volumes" {
		if p := namedItem(o, append(slices.Clip(spec), "volumes"), names); p != nil {
			return p
		}
	}
	if len(containers) > 0 {
		return containers[0]
	}
	return spec
}

// containerFields are the lists of containers a pod spec has.
var containerFields = []string{"initContainers", "containers", "ephemeralContainers"}

// firstPath is the first existing path base+rel, "*" matching any list
// item; nil when there is none.
func firstPath(o *manifest.Object, base, rel []string) []string {
	for i, k := range rel {
		if k != "*" {
			continue
		}
		v, _ := o.Get(slices.Concat(base, rel[:i])...)
		list, _ := v.([]any)
		for j := range list {
			if p := firstPath(o, slices.Concat(base, rel[:i], []string{strconv.Itoa(j)}), rel[i+1:]); p != nil {
				return p
			}
		}
		return nil
	}
	p := slices.Concat(base, rel)
	if _, ok := o.Get(p...); ok {
		return p
	}
	return nil
}

// namedItem is the item of the list at path whose name is among names.
func namedItem(o *manifest.Object, path, names []string) []string {
	v, _ := o.Get(path...)
	list, _ := v.([]any)
	for i, item := range list {
		m, _ := item.(map[string]any)
		if name, _ := m["name"].(string); slices.Contains(names, name) {
			return append(slices.Clip(path), strconv.Itoa(i))
		}
	}
	return nil
}
