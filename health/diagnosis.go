package health

// Diagnosis says why a workload failed or was not healthy in time: the
// causes its pods show, the Warning events of the pods and their owners,
// and what could not be read. Every text from the cluster in it (messages,
// events, log lines) has the Secret values of the set and of the Secrets
// its pods reference masked.
type Diagnosis struct {
	// Source is where the workload is defined in the manifests
	// ("deploy/web.yaml:3:1"); apply sets it.
	Source string `json:"source,omitempty"`
	// Causes are the distinct causes, one per container and reason, each
	// with the number of pods that show it, in the order first seen.
	Causes []Cause `json:"causes,omitempty"`
	// Events are the last Warning events of the pods and their owners,
	// deduplicated (one per object, reason and note, with a count), the
	// events of one cause across pods grouped (one per reason and note
	// but for the pod's name, with the number of pods), oldest first.
	Events []Event `json:"events,omitempty"`
	// Missing names the permissions the diagnosis lacked ("list events",
	// "get pods/log"), with what it could not read because of them.
	Missing []string `json:"missing,omitempty"`
}

// Cause is one failure cause and how many pods show it.
type Cause struct {
	Signal
	// Pods is how many pods of the workload show this cause.
	Pods int `json:"pods"`
	// Log is the last lines of the failing container's log (its previous
	// instance when it restarted), masked.
	Log []string `json:"log,omitempty"`
	// LogNote says why there is no log when there is none ("cannot read
	// Secret db to mask it: withheld").
	LogNote string `json:"logNote,omitempty"`
}

// Event is one deduplicated Warning event, or the events of one cause
// across several pods of the workload.
type Event struct {
	// Object is the object it is about: "Pod/web-7d9c-abcde"; for a group
	// of pods, their names' common prefix and "*": "Pod/web-7d9c-*".
	Object string `json:"object"`
	Reason string `json:"reason"`
	// Note is the event's note; for a group of pods, with the pod's name
	// replaced as in Object and its UID by "*".
	Note string `json:"note,omitempty"`
	// Count is how many times it happened (the series' counts added up,
	// over every pod of a group).
	Count int `json:"count"`
	// Pods is how many pods a group of pods' events is about; 0 for an
	// event about one object.
	Pods int `json:"pods,omitempty"`
}
