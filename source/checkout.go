package source

import "context"

// Checkout is what plan and apply read: local paths, or a checkout of a
// git source, with its revision when known.
type Checkout struct {
	// Paths are the paths to read: the command line's, or the checkout's
	// directory (Git.Path in the clone).
	Paths []string
	// Root is the directory files are named relative to: the clone's
	// work tree, "" for local paths.
	Root string
	// Rev is the revision read, nil when unknown (stdin, a directory in
	// no git repository).
	Rev *Revision
}

// Read brings g up to date (cloned once into the cache, then fetched and
// reset to the remote branch) and returns what to read; without a URL it
// reads the local paths as they are, their revision the HEAD of the git
// repository holding the first one, marked +dirty when its tree has
// changes ("-", stdin, has none).
func Read(ctx context.Context, g Git, paths []string) (Checkout, error) {
	if g.URL == "" {
		co := Checkout{Paths: paths}
		at := "."
		if len(paths) > 0 {
			at = paths[0]
		}
		if at == "-" {
			return co, nil
		}
		rev, err := LocalRevision(at)
		if err != nil {
			return Checkout{}, err
		}
		co.Rev = rev
		return co, nil
	}
	r, err := g.Sync(ctx)
	if err != nil {
		return Checkout{}, err
	}
	return Checkout{Paths: []string{r.Dir}, Root: r.Root, Rev: &r}, nil
}

// Top is the directory whose projects run: the first path, else ".".
func (c Checkout) Top() string {
	if len(c.Paths) > 0 {
		return c.Paths[0]
	}
	return "."
}

// Revision is the revision's SHA, "" when unknown.
func (c Checkout) Revision() string {
	if c.Rev == nil {
		return ""
	}
	return c.Rev.SHA
}
