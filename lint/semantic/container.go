package semantic

import (
	"k8s.io/apimachinery/pkg/util/validation"
)

// container checks one container (or init container) of a pod: its name
// (unique in the pod), image, enums, ports, env, resources, probes and
// volume mounts (which must name a volume of the pod).
func (s *sem) container(c []string, cm map[string]any, volumes map[string]bool, names map[string]bool, init bool) {
	switch name, ok := cm["name"].(string); {
	case ok && name != "":
		if ms := DNS1123Label(name); len(ms) > 0 {
			s.msgs(s.at(c, "name"), name, ms)
		} else if names[name] {
			s.bad(s.at(c, "name"), "Duplicate value: %q: container names must be unique within the pod (init containers included); rename one", name)
		}
		names[name] = true
	case ok: // "" (a missing name the schema reports)
		s.required(s.at(c, "name"), "every container needs a name")
	}
	if img, ok := s.str(s.at(c, "image")); !s.has(s.at(c, "image")) || (ok && img == "") {
		s.required(s.at(c, "image"), "every container needs an image")
	}
	s.enumIn(cm, c, "imagePullPolicy", "Always", "IfNotPresent", "Never")
	s.enumIn(cm, c, "terminationMessagePolicy", "File", "FallbackToLogsOnError")
	if init {
		s.enumIn(cm, c, "restartPolicy", "Always")
	}
	// Absent fields are skipped here, without making their paths.
	if cm["ports"] != nil {
		s.containerPorts(s.at(c, "ports"))
	}
	if cm["env"] != nil {
		s.env(s.at(c, "env"))
	}
	if cm["envFrom"] != nil {
		s.envFrom(s.at(c, "envFrom"))
	}
	if cm["resources"] != nil {
		s.resources(s.at(c, "resources"))
	}
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if cm[probe] != nil {
			s.probe(s.at(c, probe), probe != "readinessProbe")
		}
	}
	if lc, ok := cm["lifecycle"].(map[string]any); ok {
		for _, hook := range []string{"postStart", "preStop"} {
			if lc[hook] != nil {
				s.handler(s.at(c, "lifecycle", hook), true)
			}
		}
	}
	mounts := map[string]bool{}
	s.items(s.at(c, "volumeMounts"), func(vm []string, m map[string]any) {
		name, _ := m["name"].(string)
		switch {
		case name == "":
			s.required(s.at(vm, "name"), "name the volume to mount")
		case !volumes[name]:
			s.bad(s.at(vm, "name"), "Not found: %q: no volume of the pod has this name; add it under volumes or fix the name", name)
		}
		mp, _ := m["mountPath"].(string)
		switch {
		case mp == "":
			s.required(s.at(vm, "mountPath"), "say where to mount the volume")
		case mounts[mp]:
			s.bad(s.at(vm, "mountPath"), "Invalid value: %q: must be unique; two mounts of one container use this path", mp)
		}
		mounts[mp] = true
	})
}

// containerPorts checks ports: containerPort in 1-65535, hostPort 0 or in
// range, names IANA service names unique in the container, protocol.
func (s *sem) containerPorts(path []string) {
	names := map[string]bool{}
	s.items(path, func(pp []string, m map[string]any) {
		if name, ok := m["name"].(string); ok && name != "" {
			if ms := validation.IsValidPortName(name); len(ms) > 0 {
				s.msgs(s.at(pp, "name"), name, ms)
			} else if names[name] {
				s.bad(s.at(pp, "name"), "Duplicate value: %q: port names must be unique within a container", name)
			}
			names[name] = true
		}
		if n, ok := asInt(m["containerPort"]); ok {
			if n == 0 {
				s.bad(s.at(pp, "containerPort"), "Required value: set the port the container listens on (1-65535)")
			} else {
				s.portNum(s.at(pp, "containerPort"), n)
			}
		}
		if n, ok := asInt(m["hostPort"]); ok && n != 0 {
			s.portNum(s.at(pp, "hostPort"), n)
		}
		s.enumIn(m, pp, "protocol", "SCTP", "TCP", "UDP")
	})
}

// portNum reports n outside 1-65535.
func (s *sem) portNum(path []string, n int64) {
	if n < 1 || n > 65535 {
		s.bad(path, "Invalid value: %d: must be between 1 and 65535, inclusive", n)
	}
}

// portNumOrName checks an int-or-string port: a number in range or an
// IANA service name. Missing is left alone.
func (s *sem) portNumOrName(path []string) {
	switch v := s.get(path).(type) {
	case string:
		s.msgs(path, v, validation.IsValidPortName(v))
	default:
		if n, ok := asInt(v); ok {
			s.portNum(path, n)
		}
	}
}

// probe checks a probe: one handler, thresholds; successThreshold must be
// 1 for liveness and startup probes.
func (s *sem) probe(path []string, liveness bool) {
	m := s.m(path)
	if m == nil {
		return
	}
	s.handler(path, false)
	for _, f := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold", "terminationGracePeriodSeconds"} {
		if n, ok := asInt(m[f]); ok && n < 0 {
			s.bad(s.at(path, f), "Invalid value: %d: must be greater than or equal to 0", n)
		}
	}
	if n, ok := asInt(m["successThreshold"]); ok && liveness && n != 1 && n > 0 {
		s.bad(s.at(path, "successThreshold"), "Invalid value: %d: must be 1 for liveness and startup probes", n)
	}
}

// handler checks a probe's or a lifecycle hook's handler: exactly one of
// exec, httpGet, tcpSocket, grpc (probes) or sleep (hooks).
func (s *sem) handler(path []string, hook bool) {
	m := s.m(path)
	if m == nil {
		return
	}
	kinds := []string{"exec", "httpGet", "tcpSocket", "grpc"}
	if hook {
		kinds = []string{"exec", "httpGet", "tcpSocket", "sleep"}
	}
	n := 0
	for _, k := range kinds {
		if m[k] != nil {
			n++
		}
	}
	switch {
	case n == 0:
		s.bad(path, "Required value: must specify a handler type (%s)", quoteAll(kinds))
	case n > 1:
		s.bad(path, "Forbidden: may not specify more than 1 handler type")
	}
	if g, ok := m["httpGet"].(map[string]any); ok {
		gp := s.at(path, "httpGet")
		if g["port"] == nil {
			s.required(s.at(gp, "port"), "the port to probe, a number or a container port's name")
		}
		s.portNumOrName(s.at(gp, "port"))
		s.enumIn(g, gp, "scheme", "HTTP", "HTTPS")
		if g["httpHeaders"] != nil {
			s.items(s.at(gp, "httpHeaders"), func(h []string, m map[string]any) {
				if name, _ := m["name"].(string); name != "" {
					s.msgs(s.at(h, "name"), name, validation.IsHTTPHeaderName(name))
				}
			})
		}
	}
	if e, ok := m["exec"].(map[string]any); ok && len(listOf(e["command"])) == 0 {
		s.required(s.at(path, "exec", "command"), "the command to run")
	}
	if t, ok := m["tcpSocket"].(map[string]any); ok {
		if t["port"] == nil {
			s.required(s.at(path, "tcpSocket", "port"), "the port to probe")
		}
		s.portNumOrName(s.at(path, "tcpSocket", "port"))
	}
	if g, ok := m["grpc"].(map[string]any); ok {
		if n, ok := asInt(g["port"]); ok {
			s.portNum(s.at(path, "grpc", "port"), n)
		}
	}
}
