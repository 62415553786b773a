package source

import "github.com/kubeplan/kubeplan/internal/cachedir"

// gitCacheBase is where clones live below (see internal/cachedir): the same
// base as the schema cache in internal/kubeapi.
func gitCacheBase() (string, error) { return cachedir.Base() }
