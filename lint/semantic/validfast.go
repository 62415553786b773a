package semantic

import "k8s.io/apimachinery/pkg/util/validation"

// The apimachinery validators match regular expressions, which costs about
// a tenth of linting a large repository of valid objects. These wrappers
// accept the common valid strings with a byte loop first and leave every
// other string to apimachinery, for its verdict and its messages: a fast
// check may only ever say "valid" where apimachinery does
// (TestValidFastAgrees).

// DNS1123Label is validation.IsDNS1123Label, fast for the common valid names.
func DNS1123Label(s string) []string {
	if len(s) <= validation.DNS1123LabelMaxLength && isLabelPart(s) {
		return nil
	}
	return validation.IsDNS1123Label(s)
}

// DNS1123Subdomain is validation.IsDNS1123Subdomain, fast for the common
// valid names.
func DNS1123Subdomain(s string) []string {
	if len(s) <= validation.DNS1123SubdomainMaxLength && isSubdomain(s) {
		return nil
	}
	return validation.IsDNS1123Subdomain(s)
}

// LabelValue is validation.IsValidLabelValue, fast for the common valid
// values.
func LabelValue(s string) []string {
	if s == "" || len(s) <= validation.LabelValueMaxLength && isQualifiedPart(s) {
		return nil
	}
	return validation.IsValidLabelValue(s)
}

// QualifiedName is validation.IsQualifiedName (label and annotation keys),
// fast for the common valid keys.
func QualifiedName(s string) []string {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			prefix := s[:i]
			name = s[i+1:]
			if !(len(prefix) <= validation.DNS1123SubdomainMaxLength && isSubdomain(prefix)) {
				return validation.IsQualifiedName(s)
			}
			break
		}
	}
	if len(name) <= 63 && isQualifiedPart(name) {
		return nil
	}
	return validation.IsQualifiedName(s)
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func alnum(c byte) bool { return lowerAlnum(c) || c >= 'A' && c <= 'Z' }

// isLabelPart: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func isLabelPart(s string) bool {
	if s == "" || !lowerAlnum(s[0]) || !lowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !lowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isSubdomain: DNS-1123 labels joined by dots.
func isSubdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isLabelPart(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// isQualifiedPart: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func isQualifiedPart(s string) bool {
	if s == "" || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
