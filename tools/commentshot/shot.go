package main

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
)

// screenshot has headless Chromium load page and save what a window of
// width x height shows as png. The flags keep Chromium off the network:
// this machine has none, and every attempt would slow it down.
func screenshot(chromium, page, png string, width, height int) error {
	png, err := filepath.Abs(png)
	if err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "commentshot-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	u := url.URL{Scheme: "file", Path: page}
	cmd := exec.Command(chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir="+profile,
		"--screenshot="+png,
		fmt.Sprintf("--window-size=%d,%d", width, height),
		u.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", chromium, err, out)
	}
	if fi, err := os.Stat(png); err != nil || fi.Size() == 0 {
		return fmt.Errorf("%s wrote no screenshot to %s (%v)", chromium, png, err)
	}
	return nil
}
