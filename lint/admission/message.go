package admission

import "fmt"

// DenialText is the API server's text for a denying verdict, as in its
// Forbidden status after `<resource> "<name>" is forbidden: `.
func (v Verdict) DenialText() string {
	if v.Binding == "" {
		return fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: %s", v.Policy, v.Message)
	}
	return fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", v.Policy, v.Binding, v.Message)
}

// Forbidden is the whole message of the API server's denial of a create
// of the object named name.
func (v Verdict) Forbidden(name string) string {
	return fmt.Sprintf("%s %q is forbidden: %s", v.Resource, name, v.DenialText())
}

// WarningText is the warning header the API server sends for a verdict
// whose binding warns.
func (v Verdict) WarningText() string {
	return fmt.Sprintf("Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s", v.Policy, v.Binding, v.Message)
}

// Denies reports whether the API server refuses the object for v: a
// failed validation of a binding that denies, or an error under
// failurePolicy Fail (configuration errors deny whatever the actions).
func (v Verdict) Denies() bool {
	switch v.Result {
	case Fail:
		return has(v.Actions, Deny)
	case Error:
		return has(v.Actions, Deny) || v.Validation < 0
	}
	return false
}

// Warns reports whether the API server sends a warning for v.
func (v Verdict) Warns() bool {
	return (v.Result == Fail || (v.Result == Error && v.Validation >= 0)) && has(v.Actions, Warn)
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
