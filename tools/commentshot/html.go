package main

import (
	"bytes"
	_ "embed"
	"html/template"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

//go:embed comment.css
var commentCSS string

// markdownHTML renders GitHub-flavoured markdown as GitHub shows it in a
// comment: tables, strikethrough, task lists, autolinks, and raw HTML such
// as <details> passed through.
func markdownHTML(md []byte) ([]byte, error) {
	gm := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	var b bytes.Buffer
	if err := gm.Convert(md, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>kubeplan plan comment</title>
<style>{{.CSS}}</style>
</head>
<body>
<div class="timeline-item">
  <div class="avatar" aria-hidden="true">k</div>
  <div class="comment">
    <div class="comment-header"><strong>github-actions</strong> <span class="label">bot</span> commented</div>
    <div class="comment-body">
{{.Body}}
    </div>
  </div>
</div>
</body>
</html>
`))

var (
	diffBlock   = regexp.MustCompile(`(?s)<pre><code class="language-diff">(.*?)</code></pre>`)
	detailsOpen = regexp.MustCompile(`<details><summary>([^<]*)</summary>`)
	alert       = regexp.MustCompile(`<blockquote>\s*<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*`)
)

// githubAlerts turns "> [!CAUTION]" blockquotes into the coloured callouts
// GitHub shows for them (goldmark leaves them as plain quotes).
func githubAlerts(body []byte) []byte {
	return alert.ReplaceAllFunc(body, func(m []byte) []byte {
		kind := string(alert.FindSubmatch(m)[1])
		title := kind[:1] + strings.ToLower(kind[1:])
		return []byte(`<blockquote class="alert alert-` + strings.ToLower(kind) + `"><p class="alert-title">` + title + `</p><p>`)
	})
}

// highlightDiffs marks the lines of diff blocks as added, deleted or hunk
// headers, as GitHub's highlighting does.
func highlightDiffs(body []byte) []byte {
	return diffBlock.ReplaceAllFunc(body, func(m []byte) []byte {
		code := string(diffBlock.FindSubmatch(m)[1])
		lines := strings.SplitAfter(code, "\n")
		var b strings.Builder
		b.WriteString(`<pre><code class="language-diff">`)
		for _, l := range lines {
			class := ""
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
				class = "diff-file"
			case strings.HasPrefix(l, "+"):
				class = "diff-add"
			case strings.HasPrefix(l, "-"):
				class = "diff-del"
			case strings.HasPrefix(l, "@@"):
				class = "diff-hunk"
			}
			if class == "" {
				b.WriteString(l)
				continue
			}
			text, nl := strings.CutSuffix(l, "\n")
			b.WriteString(`<span class="` + class + `">` + text + `</span>`)
			if nl {
				b.WriteString("\n")
			}
		}
		b.WriteString(`</code></pre>`)
		return []byte(b.String())
	})
}

// openDetails opens the <details> blocks whose summary contains one of
// names, as a reviewer who clicked them would see the comment.
func openDetails(body []byte, names []string) []byte {
	return detailsOpen.ReplaceAllFunc(body, func(m []byte) []byte {
		summary := string(detailsOpen.FindSubmatch(m)[1])
		for _, n := range names {
			if n != "" && strings.Contains(summary, n) {
				return []byte(`<details open><summary>` + summary + `</summary>`)
			}
		}
		return m
	})
}

// commentPage is the markdown as a pull-request comment page, with the
// diffs of the objects named in open shown.
func commentPage(md []byte, open []string) ([]byte, error) {
	body, err := markdownHTML(md)
	if err != nil {
		return nil, err
	}
	body = openDetails(highlightDiffs(githubAlerts(body)), open)
	var b bytes.Buffer
	err = pageTemplate.Execute(&b, struct {
		CSS  template.CSS
		Body template.HTML
	}{template.CSS(commentCSS), template.HTML(body)})
	return b.Bytes(), err
}
