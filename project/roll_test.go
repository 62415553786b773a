package project

import "testing"

// A project's rollOnConfigChange is its entry's, else the defaults', else
// off; an entry's false wins over the defaults' true.
func TestLoadRollOnConfigChange(t *testing.T) {
	dir := repo(t, map[string]string{"shop/cm.yaml": cmYAML, "web/cm.yaml": cmYAML, "ops/cm.yaml": cmYAML})
	for _, tc := range []struct {
		config string
		want   map[string]bool
	}{
		{"projects: [{path: shop}, {path: web}]\n", map[string]bool{"shop": false, "web": false}},
		{"defaults: {rollOnConfigChange: true}\nprojects: [{path: shop, rollOnConfigChange: false}, {path: web}]\n", map[string]bool{"shop": false, "web": true}},
		{"projects: [{path: shop, rollOnConfigChange: true}, {path: web}]\n", map[string]bool{"shop": true, "web": false}},
	} {
		ps, err := Load(".", parse(t, dir, tc.config), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != len(tc.want) {
			t.Fatalf("%s: %d projects, want %d", tc.config, len(ps), len(tc.want))
		}
		for _, p := range ps {
			if _, ok := tc.want[p.Name]; !ok {
				t.Errorf("%s: project %s", tc.config, p.Name)
			}
			if p.RollOnConfigChange != tc.want[p.Name] {
				t.Errorf("%s: %s rolls %v", tc.config, p.Name, p.RollOnConfigChange)
			}
		}
	}
}
