package main

import (
	"strings"
	"testing"
)

const sample = "### kubeplan plan: namespace `store`\n\n**Plan: 0 to add, 1 to change, 1 to prune, 0 unchanged.**\n\n" +
	"> [!CAUTION]\n> Applying **deletes 1 object**.\n\n" +
	"| | object |\n|---|---|\n| 🔄 update | `deployment.apps/web` |\n| 🗑️ prune | `configmap/old` |\n\n" +
	"<details><summary>~ update deployment.apps/web</summary>\n\n```diff\n--- live\n+++ planned\n@@ -1,1 +1,1 @@\n-  replicas: 6\n+  replicas: 3\n   x: <y>\n```\n\n</details>\n\n" +
	"<details><summary>~ update secret/s</summary>\n\n```diff\n-  a: '*** (before)'\n```\n\n</details>\n"

func TestCommentPage(t *testing.T) {
	page, err := commentPage([]byte(sample), []string{"deployment.apps/web"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"<h3>kubeplan plan: namespace <code>store</code></h3>",
		"<table>", "<td>🗑️ prune</td>", // GFM tables
		"<details open><summary>~ update deployment.apps/web</summary>", // raw HTML kept, the one asked for open
		"<details><summary>~ update secret/s</summary>",                 // the others closed
		`<span class="diff-del">-  replicas: 6</span>` + "\n" + `<span class="diff-add">+  replicas: 3</span>` + "\n",
		`<span class="diff-hunk">@@ -1,1 +1,1 @@</span>`,
		"   x: &lt;y&gt;\n", // diff text stays escaped
		`<div class="comment-body">`,
		`<blockquote class="alert alert-caution"><p class="alert-title">Caution</p><p>Applying <strong>deletes 1 object</strong>.`, // as GitHub shows alerts
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "{{") || !strings.Contains(s, ".diff-add") {
		t.Errorf("template or stylesheet not filled in:\n%s", s)
	}
}
