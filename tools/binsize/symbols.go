package main

import (
	"debug/elf"
	"fmt"
	"strings"
)

// image is what a linked binary is made of: the size of each symbol that
// takes room in the file (text, read-only data, data; not bss) by name,
// and the file's bytes by kind of section.
type image struct {
	Symbols  map[string]int64
	Sections map[string]int64 // "text", "rodata", "pclntab", "data", "DWARF", "other"
}

// readImage reads bin's ELF symbol table and section headers.
func readImage(bin string) (image, error) {
	f, err := elf.Open(bin)
	if err != nil {
		return image{}, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return image{}, fmt.Errorf("%s: %w", bin, err)
	}
	img := image{Symbols: map[string]int64{}, Sections: map[string]int64{}}
	for _, s := range syms {
		if int(s.Section) <= 0 || int(s.Section) >= len(f.Sections) || s.Size == 0 {
			continue
		}
		if sec := f.Sections[s.Section]; sec.Type == elf.SHT_NOBITS || sec.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		img.Symbols[s.Name] = int64(s.Size)
	}
	for _, sec := range f.Sections {
		if sec.Type == elf.SHT_NOBITS {
			continue
		}
		img.Sections[sectionKind(sec.Name)] += int64(sec.FileSize)
	}
	return img, nil
}

// sectionKind is how the section name is counted in image.Sections.
func sectionKind(name string) string {
	switch {
	case name == ".text":
		return "text"
	case name == ".rodata" || name == ".typelink" || name == ".itablink":
		return "rodata"
	case name == ".gopclntab":
		return "pclntab"
	case name == ".data" || name == ".noptrdata":
		return "data"
	case strings.HasPrefix(name, ".debug_") || strings.HasPrefix(name, ".zdebug_"):
		return "DWARF"
	}
	return "other"
}
