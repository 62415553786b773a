package project

// Dependencies returns the projects p depends on, directly or through
// others, found among all by name, in a stable order (breadth first, as
// dependsOn lists them). Names not in all are left out.
func Dependencies(all []Project, p Project) []Project {
	byName := make(map[string]Project, len(all))
	for _, q := range all {
		byName[q.Name] = q
	}
	seen := map[string]bool{p.Name: true}
	var out []Project
	queue := append([]string(nil), p.DependsOn...)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		q, ok := byName[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, q)
		queue = append(queue, q.DependsOn...)
	}
	return out
}
