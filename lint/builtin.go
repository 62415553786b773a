package lint

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yannh/kubeconform/pkg/loader"
	"github.com/yannh/kubeconform/pkg/registry"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

// compiled is a schema ready to validate, with its raw document kept for
// finding the names of known fields. A schema compileFast takes (every
// built-in one, and a CRD's that plainlyValid vouched for) has fast set;
// any other is compiled by jsonschema (schema set).
type compiled struct {
	schema *jsonschema.Schema
	fast   *fastSchema
	raw    any
}

// validate checks v against the schema; the error is a
// *jsonschema.ValidationError either way.
func (c *compiled) validate(v any) error {
	if c.fast != nil {
		return c.fast.Validate(v)
	}
	return c.schema.Validate(v)
}

// builtinSchemas loads the embedded Kubernetes schemas through kubeconform's
// registry (from the extracted, content-addressed cache directory) and
// compiles each once.
type builtinSchemas struct {
	once sync.Once
	reg  registry.Registry
	err  error

	mu sync.Mutex
	m  map[string]*schemaEntry
}

type schemaEntry struct {
	once sync.Once
	c    *compiled
	err  error
}

func (b *builtinSchemas) init() error {
	b.once.Do(func() {
		dir, err := kubeapi.Dir()
		if err != nil {
			b.err = fmt.Errorf("preparing the built-in schemas: %w", err)
			return
		}
		b.reg, b.err = registry.New(filepath.Join(dir, kubeapi.FileTemplate), "", true, false, false)
		b.m = map[string]*schemaEntry{}
	})
	return b.err
}

// get returns the compiled schema of apiVersion/kind, or nil when the
// registry has none.
func (b *builtinSchemas) get(apiVersion, kind string) (*compiled, error) {
	if err := b.init(); err != nil {
		return nil, err
	}
	key := apiVersion + "/" + kind
	b.mu.Lock()
	e, ok := b.m[key]
	if !ok {
		e = &schemaEntry{}
		b.m[key] = e
	}
	b.mu.Unlock()
	e.once.Do(func() {
		path, raw, err := b.reg.DownloadSchema(kind, apiVersion, kubeapi.KubeVersion)
		var nf *loader.NotFoundError
		if errors.As(err, &nf) {
			return
		}
		if err != nil {
			e.err = fmt.Errorf("loading schema for %s %s: %w", apiVersion, kind, err)
			return
		}
		if f := compileFast(raw); f != nil {
			e.c = &compiled{fast: f, raw: raw}
			return
		}
		s, err := compileSchema(path, raw)
		if err != nil {
			e.err = fmt.Errorf("compiling schema for %s %s: %w", apiVersion, kind, err)
			return
		}
		e.c = &compiled{schema: s, raw: raw}
	})
	return e.c, e.err
}

// compileSchema compiles one schema document the way kubeconform does:
// draft 4 by default, with Kubernetes' duration format.
func compileSchema(url string, doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.RegisterFormat(&jsonschema.Format{Name: "duration", Validate: validateDuration})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// validateDuration accepts Go durations ("1h30m") and ISO 8601 ("PT1H").
func validateDuration(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if _, err := time.ParseDuration(s); err == nil {
		return nil
	}
	if strings.HasPrefix(s, "P") && len(s) > 1 {
		return nil
	}
	return fmt.Errorf("%q is not a duration such as 1h30m", s)
}
