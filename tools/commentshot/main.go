package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	kubeplan := flag.String("kubeplan", "bin/kubeplan", "the kubeplan binary to plan with")
	out := flag.String("out", "docs/plan-comment.png", "the PNG to write")
	mdOut := flag.String("markdown", "", "also write the plan's markdown to this file")
	mdIn := flag.String("from-markdown", "", "photograph this markdown instead of planning on bin/testcluster")
	htmlOut := flag.String("html", "", "also write the comment page to this file")
	chromium := flag.String("chromium", "chromium", "the Chromium binary")
	width := flag.Int("width", 900, "window width in CSS pixels")
	height := flag.Int("height", 1440, "window height in CSS pixels: the height of the picture")
	open := flag.String("open", "deployment.apps/web,secret/db-credentials", "comma-separated objects whose diff is shown open, as if clicked")
	flag.Parse()
	if err := run(*kubeplan, *mdIn, *out, *mdOut, *htmlOut, *chromium, *width, *height, strings.Split(*open, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "commentshot:", err)
		os.Exit(1)
	}
}

func run(kubeplan, mdIn, out, mdOut, htmlOut, chromium string, width, height int, open []string) error {
	var md []byte
	var err error
	if mdIn != "" {
		md, err = os.ReadFile(mdIn)
	} else {
		md, err = planOnCluster(kubeplan)
	}
	if err != nil {
		return err
	}
	if mdOut != "" {
		if err := os.WriteFile(mdOut, md, 0o644); err != nil {
			return err
		}
	}
	page, err := commentPage(md, open)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "commentshot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	pagePath := filepath.Join(tmp, "comment.html")
	if err := os.WriteFile(pagePath, page, 0o644); err != nil {
		return err
	}
	if htmlOut != "" {
		if err := os.WriteFile(htmlOut, page, 0o644); err != nil {
			return err
		}
	}
	if err := screenshot(chromium, pagePath, out, width, height); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", out)
	return nil
}
