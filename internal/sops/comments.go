package sops

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// comments decrypts the comments SOPS encrypted ("#ENC[...,type:comment]")
// on the nodes of a YAML mapping or sequence at path: SOPS keeps each as
// an item of that branch, so its path is the branch's. A comment that does
// not decrypt stays as it is, as SOPS leaves it; comments are not in the
// MAC.
func (d *decrypter) comments(path []string, nodes ...*yaml.Node) {
	if !d.meta.shouldBeEncrypted(path) {
		return
	}
	aad := strings.Join(path, ":") + ":"
	for _, n := range nodes {
		if n == nil {
			continue
		}
		for _, c := range []*string{&n.HeadComment, &n.LineComment, &n.FootComment} {
			if strings.Contains(*c, "ENC[") {
				*c = d.commentLines(*c, aad)
			}
		}
	}
}

// commentLines decrypts each "#ENC[...]" line of a comment.
func (d *decrypter) commentLines(c, aad string) string {
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#"))
		if !IsEncryptedValue(v) {
			continue
		}
		if plain, typ, err := decryptValue(v, d.key, aad); err == nil && typ == "comment" {
			lines[i] = "#" + string(plain)
		}
	}
	return strings.Join(lines, "\n")
}

// Layout lays a decrypted YAML document out as `sops -d` prints it:
// strings plain where YAML allows it (the encoder quotes a string that
// would read as another type), comments above what they belong to.
func Layout(n *yaml.Node) {
	plainStyle(n)
	commentsAbove(n)
}

func plainStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Style == yaml.DoubleQuotedStyle && !strings.Contains(n.Value, "\n") {
		n.Style = 0
	}
	for _, c := range n.Content {
		plainStyle(c)
	}
}

// commentsAbove moves line comments above their key or item, where SOPS
// writes every comment (it keeps comments as items of the branch).
func commentsAbove(n *yaml.Node) {
	above := func(to *yaml.Node, from ...*yaml.Node) {
		for _, f := range from {
			if f.LineComment == "" {
				continue
			}
			if to.HeadComment != "" {
				to.HeadComment += "\n"
			}
			to.HeadComment += f.LineComment
			f.LineComment = ""
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.ScalarNode {
				above(k, k, v)
			} else {
				above(k, k)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				above(c, c)
			}
		}
	}
	for _, c := range n.Content {
		commentsAbove(c)
	}
}
