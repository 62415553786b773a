package arguments

import (
	"fmt"
	"slices"
	"strings"
)

// checkOutput refuses an --output that is not one of formats.
func checkOutput(output string, formats []string) error {
	if !slices.Contains(formats, output) {
		return fmt.Errorf("unknown --output %q: want one of %s", output, strings.Join(formats, ", "))
	}
	return nil
}
