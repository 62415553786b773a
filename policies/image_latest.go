package policies

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

var imageLatest = Rule{
	ID:          "image-latest",
	Severity:    SeverityError,
	Description: "container images must be pinned to a version tag or digest, not :latest or untagged",
	Check:       eachObject(checkImageLatest),
}

func checkImageLatest(o *manifest.Object, _ Options) []Violation {
	var out []Violation
	containerField(o, "image", func(path []string, v any) {
		image, _ := v.(string)
		if strings.TrimSpace(image) == "" {
			return // missing or not a string: the schema check reports it
		}
		tag, pinned := imageTag(image)
		var msg string
		switch {
		case pinned || (tag != "" && tag != "latest"):
			return
		case tag == "latest":
			msg = fmt.Sprintf("image %q uses the latest tag, which changes without the manifest changing; pin a version tag or a digest (@sha256:...)", image)
		default:
			msg = fmt.Sprintf("image %q has no tag, so it means latest, which changes without the manifest changing; pin a version tag or a digest (@sha256:...)", image)
		}
		out = append(out, Violation{Object: o, Path: path, Message: msg})
	})
	return out
}

// imageTag splits an image reference ([host[:port]/]path[:tag][@digest]).
// pinned is true when it carries a digest; tag is "" when it has none.
func imageTag(image string) (tag string, pinned bool) {
	if strings.Contains(image, "@") {
		return "", true
	}
	last := image[strings.LastIndexByte(image, '/')+1:] // a host's :port is before the last '/'
	if i := strings.LastIndexByte(last, ':'); i >= 0 {
		return last[i+1:], false
	}
	return "", false
}
