package kubeapi

import "embed"

//go:generate go run ../../tools/schemagen -out .

// artifacts holds what tools/schemagen wrote here: the schema archive
// (named by schemaArchive in zz_generated.go) and the API index.
//
//go:embed k8s-v*.tar.gz apis.json.gz
var artifacts embed.FS

const indexFile = "apis.json.gz"
