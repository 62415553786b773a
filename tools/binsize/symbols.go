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
	Sections map[string]int64 // "text", "rodata", "pclntab", "data", "DWARF", "symtab", "dynsym", "other"
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
	img := image{Sections: map[string]int64{}}
	var inFile []elf.Symbol
	for _, s := range syms {
		if int(s.Section) <= 0 || int(s.Section) >= len(f.Sections) || s.Size == 0 {
			continue
		}
		if sec := f.Sections[s.Section]; sec.Type == elf.SHT_NOBITS || sec.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		inFile = append(inFile, s)
	}
	img.Symbols = byAddress(inFile)
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
	case name == ".symtab" || name == ".strtab":
		return "symtab"
	case name == ".dynsym" || name == ".dynstr" || name == ".gnu.hash" || name == ".gnu.version" || name == ".hash":
		return "dynsym"
	}
	return "other"
}

// byAddress keeps one symbol per address, the largest: Go's linker writes
// many twice, as NAME and as local.NAME, and an alias shares its target's
// bytes. The name kept is without the local. prefix.
func byAddress(syms []elf.Symbol) map[string]int64 {
	type kept struct {
		name string
		size uint64
	}
	at := map[uint64]kept{}
	for _, s := range syms {
		name := strings.TrimPrefix(s.Name, "local.")
		if k, ok := at[s.Value]; !ok || s.Size > k.size || (s.Size == k.size && name < k.name) {
			at[s.Value] = kept{name, s.Size}
		}
	}
	out := map[string]int64{}
	for _, k := range at {
		out[k.name] += int64(k.size)
	}
	return out
}
