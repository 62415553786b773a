package serve

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }

// short is a commit's first 7 hex digits.
func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
