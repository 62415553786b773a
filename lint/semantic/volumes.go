package semantic

import (
	"strings"
)

// volumeSources are the fields that say what a volume is; a volume has
// exactly one.
var volumeSources = []string{"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo",
	"secret", "nfs", "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs",
	"flocker", "downwardAPI", "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk",
	"photonPersistentDisk", "projected", "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image"}

// volumes checks a pod's volumes (names unique DNS labels, one source
// each, the sources' required fields) and returns their names, with a
// StatefulSet's claim templates.
func (s *sem) volumes(path []string) map[string]bool {
	names := map[string]bool{}
	for k := range s.claims {
		names[k] = true
	}
	seen := map[string]bool{}
	s.items(path, func(v []string, m map[string]any) {
		name, _ := m["name"].(string)
		switch {
		case name == "":
			s.required(s.at(v, "name"), "every volume needs a name")
		case len(DNS1123Label(name)) > 0:
			s.msgs(s.at(v, "name"), name, DNS1123Label(name))
		case seen[name]:
			s.bad(s.at(v, "name"), "Duplicate value: %q: volume names must be unique within the pod", name)
		}
		seen[name] = true
		names[name] = true
		n := 0
		for _, src := range volumeSources {
			if m[src] != nil {
				n++
			}
		}
		if n > 1 { // none is an emptyDir: the API server defaults it
			s.bad(v, "Forbidden: may not specify more than 1 volume type")
		}
		s.volumeSource(v, m, name)
	})
	return names
}

// volumeSource checks the common sources' required fields and values.
func (s *sem) volumeSource(v []string, m map[string]any, name string) {
	if s.has(s.at(v, "configMap")) {
		s.requiredString(s.at(v, "configMap", "name"), "name the ConfigMap")
		s.keyToPaths(s.at(v, "configMap", "items"))
		s.fileMode(s.at(v, "configMap", "defaultMode"))
	}
	if s.has(s.at(v, "secret")) {
		s.requiredString(s.at(v, "secret", "secretName"), "name the Secret")
		s.keyToPaths(s.at(v, "secret", "items"))
		s.fileMode(s.at(v, "secret", "defaultMode"))
	}
	if s.has(s.at(v, "persistentVolumeClaim")) && !s.claims[name] {
		s.requiredString(s.at(v, "persistentVolumeClaim", "claimName"), "name the PersistentVolumeClaim")
	}
	if s.has(s.at(v, "emptyDir")) {
		if q, ok := s.quantity(s.at(v, "emptyDir", "sizeLimit")); ok && q.Sign() < 0 {
			s.bad(s.at(v, "emptyDir", "sizeLimit"), "Forbidden: SizeLimit field must be a valid resource quantity (not negative)")
		}
		s.enum(s.at(v, "emptyDir", "medium"), "", "Memory", "HugePages")
	}
	if s.has(s.at(v, "downwardAPI")) {
		s.fileMode(s.at(v, "downwardAPI", "defaultMode"))
		s.downwardItems(s.at(v, "downwardAPI", "items"))
	}
	if s.has(s.at(v, "projected")) {
		s.fileMode(s.at(v, "projected", "defaultMode"))
		s.items(s.at(v, "projected", "sources"), func(src []string, sm map[string]any) {
			n := 0
			for _, k := range []string{"secret", "downwardAPI", "configMap", "serviceAccountToken", "clusterTrustBundle", "podCertificate"} {
				if sm[k] != nil {
					n++
				}
			}
			if n > 1 {
				s.bad(src, "Forbidden: a projected source may have only one of secret, configMap, downwardAPI, serviceAccountToken, clusterTrustBundle")
			}
			if s.has(s.at(src, "configMap")) {
				s.requiredString(s.at(src, "configMap", "name"), "name the ConfigMap")
			}
			s.keyToPaths(s.at(src, "configMap", "items"))
			s.keyToPaths(s.at(src, "secret", "items"))
			s.downwardItems(s.at(src, "downwardAPI", "items"))
			if s.has(s.at(src, "serviceAccountToken")) {
				t := s.at(src, "serviceAccountToken")
				s.requiredString(s.at(t, "path"), "say where to write the token")
				s.relativePath(s.at(t, "path"))
				if n, ok := s.num(s.at(t, "expirationSeconds")); ok && (n < 600 || n > 1<<32) {
					s.bad(s.at(t, "expirationSeconds"), "Invalid value: %d: may not be shorter than 10 minutes (600) or longer than 2^32 seconds", n)
				}
			}
		})
	}
	if s.has(s.at(v, "hostPath")) {
		s.requiredString(s.at(v, "hostPath", "path"), "the path on the node")
		s.enum(s.at(v, "hostPath", "type"), "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice", "BlockDevice")
	}
}

// requiredString reports a missing or empty string at path.
func (s *sem) requiredString(path []string, what string) {
	if v, ok := s.str(path); ok && v != "" {
		return
	}
	if s.has(path) {
		if _, isString := s.get(path).(string); !isString {
			return // the schema reports the type
		}
	}
	s.required(path, what)
}

// keyToPaths checks the items of a configMap or secret volume: a key and
// a relative path each.
func (s *sem) keyToPaths(path []string) {
	s.items(path, func(it []string, m map[string]any) {
		s.requiredString(s.at(it, "key"), "the key to project")
		s.requiredString(s.at(it, "path"), "the file to write it to")
		s.relativePath(s.at(it, "path"))
		s.fileMode(s.at(it, "mode"))
	})
}

// downwardItems checks the items of a downwardAPI volume or projection.
func (s *sem) downwardItems(path []string) {
	s.items(path, func(it []string, m map[string]any) {
		s.requiredString(s.at(it, "path"), "the file to write the field to")
		s.relativePath(s.at(it, "path"))
		s.fileMode(s.at(it, "mode"))
		n := 0
		if m["fieldRef"] != nil {
			n++
			s.fieldRef(s.at(it, "fieldRef"), volumeFieldPaths)
		}
		if m["resourceFieldRef"] != nil {
			n++
		}
		if n != 1 {
			s.bad(it, "Invalid value: must specify exactly one of fieldRef and resourceFieldRef")
		}
	})
}

// volumeFieldPaths are the fields a downwardAPI volume may write.
var volumeFieldPaths = map[string]bool{"metadata.name": true, "metadata.namespace": true, "metadata.uid": true,
	"metadata.labels": true, "metadata.annotations": true}

// relativePath reports an absolute path or one with "..".
func (s *sem) relativePath(path []string) {
	v, ok := s.str(path)
	if !ok || v == "" {
		return
	}
	if strings.HasPrefix(v, "/") {
		s.bad(path, "Invalid value: %q: must be a relative path", v)
	}
	for _, part := range strings.Split(v, "/") {
		if part == ".." {
			s.bad(path, "Invalid value: %q: must not contain '..'", v)
			break
		}
	}
}

// fileMode reports a mode outside 0-0777.
func (s *sem) fileMode(path []string) {
	if n, ok := s.num(path); ok && (n < 0 || n > 0o777) {
		s.bad(path, "Invalid value: %d: must be a number between 0 and 0777 (octal), both inclusive", n)
	}
}
